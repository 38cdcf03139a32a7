/**
 * Collaboration (spec 001 §7 "Collaboration"; docs/server.md#collaboration): collaborative series,
 * invites by e-mail or single-use link, members and roles, and the activity record of a series.
 *
 * A collaborative series is a series with members (docs/spec-differences.md). Who may do what is
 * the shared rule (packages/schema collaboration.ts): reading needs any role, inviting and managing
 * members admin, transferring the series its owner. Ids the caller has no part in are 404, never
 * 403; a known series whose role is too low is 403 FORBIDDEN with a message that says why. Creating
 * and inviting need the `collaboration` feature: the creator's plan, then the owner's (a shared
 * series' limits are its owner's); members need no plan.
 *
 * Writes run through the one write path (runMutation: seq, idempotency, group commit), and every
 * membership change pokes the series' audience, the member it concerns included.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AccessLevel,
  ERROR_CODES,
  INVITE_MESSAGES,
  type InviteRole,
  ROLE_MESSAGES,
  changeRoleBodySchema,
  createCollaborativeSeriesBodySchema,
  gateState,
  inviteBodySchema,
  inviteExpiresAt,
  inviteLinkBodySchema,
  isInviteExpired,
  memberRoleOf,
  newId,
  roleRank,
  transferBodySchema,
} from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { emailKeyOf } from '../auth/users.ts';
import { type SeriesAccess, assertLevel } from '../entities/access.ts';
import { assertCreateLimit } from '../entities/gates.ts';
import { type Db, assertIdFree, findRow, ownerPlan, seriesAccess, userPlan } from '../entities/queries.ts';
import { insertRow, updateRow } from '../entities/writes.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import type { MutationContext, MutationResult } from '../sync/mutation.ts';
import { registerPresenceRoutes, tellInvitees } from './live.ts';
import {
  type StoredInvite,
  answerInvite,
  displayNameOf,
  emailKeyOfUser,
  endMembership,
  findInvite,
  findInviteByToken,
  findPendingInviteTo,
  hashToken,
  insertInvite,
  inviteAnswer,
  listActivity,
  listCollaborativeSeries,
  listMembers,
  liveMemberRole,
  markCollaborative,
  newToken,
  pendingInvitesFor,
  pendingInvitesOf,
  putMembership,
  recordActivity,
  refreshInvite,
  userIdsWithEmail,
} from './store.ts';

const seriesParams = z.strictObject({ seriesId: z.string().min(1).max(100) });
const memberParams = z.strictObject({ seriesId: z.string().min(1).max(100), userId: z.string().min(1).max(100) });
const activityQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(30) });
const tokenBody = z.strictObject({ token: z.string().min(1).max(200) });

const forbidden = (message: string) => new HttpError(403, ERROR_CODES.forbidden, message);

/** The caller's standing in a live series at `level`: 404 when they have none, 403 when too low. */
async function accessAt(db: Db, seriesId: string, userId: string, level: AccessLevel): Promise<SeriesAccess> {
  const access = await seriesAccess(db, seriesId, userId);
  if (!access || access.deleted) throw notFound();
  assertLevel(access, level);
  return access;
}

/** Creating and inviting need the collaboration feature on `plan`'s tier (the spec's communityCollaboration). */
function assertCollaborationPlan(plan: Parameters<typeof gateState>[0]['plan']): void {
  const gate = gateState({ plan, feature: 'collaboration' });
  if (gate.locked) throw new HttpError(403, ERROR_CODES.featureLocked, gate.message);
}

/** An e-mail invite answered by the signed-in invitee: 404 for anyone else (the id says nothing to them). */
async function inviteForInvitee(ctx: MutationContext, id: string): Promise<StoredInvite> {
  const invite = await findInvite(ctx.trx, id);
  const emailKey = await emailKeyOfUser(ctx.trx, ctx.userId);
  if (!invite || invite.inviteeEmailKey === null || emailKey === null || invite.inviteeEmailKey !== emailKey) throw notFound();
  const series = await findRow(ctx.trx, 'series', invite.seriesId);
  if (!series || series.deletedAt !== null) throw notFound();
  return invite;
}

function assertAnswerable(invite: StoredInvite, now: string): void {
  if (invite.status !== 'pending') throw new HttpError(409, ERROR_CODES.conflict, INVITE_MESSAGES.notPending);
  if (isInviteExpired(invite.expiresAt, new Date(now))) throw new HttpError(410, ERROR_CODES.gone, INVITE_MESSAGES.expired);
}

/** Joins the caller to the invite's series (an owner or a member with a higher role keeps theirs). */
async function join(ctx: MutationContext, invite: StoredInvite): Promise<void> {
  if (!(await answerInvite(ctx, invite.id, 'accepted'))) throw new HttpError(409, ERROR_CODES.conflict, INVITE_MESSAGES.notPending);
  const series = await findRow(ctx.trx, 'series', invite.seriesId);
  if (!series || series.ownerId === ctx.userId) return;
  const current = await liveMemberRole(ctx.trx, invite.seriesId, ctx.userId);
  const offered = memberRoleOf(invite.role);
  const role = current !== null && roleRank(memberRoleOf(current)) > roleRank(offered) ? memberRoleOf(current) : offered;
  await putMembership(ctx, invite.seriesId, ctx.userId, role);
  await recordActivity(ctx, invite.seriesId, 'member.joined', { role });
}

async function acceptedAnswer(ctx: MutationContext, invite: StoredInvite): Promise<MutationResult> {
  const stored = (await findInvite(ctx.trx, invite.id))!;
  const series = (await listCollaborativeSeries(ctx.trx, ctx.userId, ctx.now)).find((s) => s.id === invite.seriesId) ?? null;
  return ok({ invite: await inviteAnswer(ctx.trx, stored), series });
}

/**
 * A role change or removal of `userId` by the caller: the target must be a live member (404), the
 * owner is out of reach (403), and an admin may not act on another admin or make one.
 */
async function managedMember(ctx: MutationContext, seriesId: string, userId: string, newRole?: InviteRole): Promise<{ access: SeriesAccess; role: string }> {
  const access = await accessAt(ctx.trx, seriesId, ctx.userId, 'manage');
  if (userId === access.ownerId) throw forbidden(ROLE_MESSAGES.cannotChangeOwner);
  const role = await liveMemberRole(ctx.trx, seriesId, userId);
  if (role === null) throw notFound();
  if (access.role !== 'owner' && (memberRoleOf(role) === 'admin' || newRole === 'admin')) throw forbidden(ROLE_MESSAGES.adminCannotManageAdmin);
  return { access, role };
}

export default async function collaborationPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  // --- series -----------------------------------------------------------------------------------

  app.get('/api/collaboration/series', async (request) => listCollaborativeSeries(db, requireUser(request).id, new Date().toISOString()));

  app.post('/api/collaboration/series', { schema: { body: createCollaborativeSeriesBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      assertCollaborationPlan(await userPlan(ctx.trx, ctx.userId));
      const { id = newId(), name, description, isPublic } = request.body;
      await assertCreateLimit(ctx.trx, 'series', { ownerId: ctx.userId });
      await assertIdFree(ctx.trx, 'series', id);
      await insertRow(ctx, 'series', { id, ownerId: ctx.userId, title: name, description, totalBooks: 3, currentBook: 1, coverImage: null });
      await markCollaborative(ctx, id, isPublic);
      await recordActivity(ctx, id, 'series.created');
      const created = (await listCollaborativeSeries(ctx.trx, ctx.userId, ctx.now)).find((s) => s.id === id);
      return { status: 201, body: created };
    }),
  );

  app.get('/api/collaboration/series/:seriesId/members', { schema: { params: seriesParams } }, async (request) => {
    const user = requireUser(request);
    const access = await accessAt(db, request.params.seriesId, user.id, 'read');
    const now = new Date().toISOString();
    const managing = access.role === 'owner' || access.role === 'admin';
    return {
      members: await listMembers(db, access.seriesId, access.ownerId),
      invites: managing ? await pendingInvitesOf(db, access.seriesId, now) : [],
    };
  });

  app.get('/api/collaboration/series/:seriesId/activity', { schema: { params: seriesParams, querystring: activityQuery } }, async (request) => {
    const user = requireUser(request);
    const access = await accessAt(db, request.params.seriesId, user.id, 'read');
    return listActivity(db, access.seriesId, request.query.limit);
  });

  // --- invites ----------------------------------------------------------------------------------

  app.post('/api/collaboration/series/:seriesId/invites', { schema: { params: seriesParams, body: inviteBodySchema } }, async (request, reply) => {
    const sent = await write(request, reply, async (ctx) => {
      const access = await accessAt(ctx.trx, request.params.seriesId, ctx.userId, 'manage');
      assertCollaborationPlan(await ownerPlan(ctx.trx, access.seriesId));
      const { inviteeEmail, role, message } = request.body;
      const emailKey = emailKeyOf(inviteeEmail)!;
      // Everyone with that address is already in: nothing to invite them to.
      const holders = await userIdsWithEmail(ctx.trx, emailKey);
      if (holders.length > 0) {
        const standings = await Promise.all(holders.map(async (id) => id === access.ownerId || (await liveMemberRole(ctx.trx, access.seriesId, id)) !== null));
        if (standings.every(Boolean)) {
          throw new HttpError(409, ERROR_CODES.conflict, holders.includes(ctx.userId) ? ROLE_MESSAGES.inviteSelf : ROLE_MESSAGES.alreadyMember);
        }
      }
      const values = { inviterId: ctx.userId, role, message: message?.trim() ? message.trim() : null, expiresAt: inviteExpiresAt(new Date(ctx.now)) };
      const pending = await findPendingInviteTo(ctx.trx, access.seriesId, emailKey);
      let id: string;
      if (pending) {
        await refreshInvite(ctx, pending.id, values);
        id = pending.id;
      } else {
        id = await insertInvite(ctx, { ...values, seriesId: access.seriesId, inviteeEmail, inviteeEmailKey: emailKey, tokenHash: null });
      }
      await recordActivity(ctx, access.seriesId, 'member.invited', { invitee: inviteeEmail, role });
      ctx.touch(access.seriesId);
      return { status: pending ? 200 : 201, body: await inviteAnswer(ctx.trx, (await findInvite(ctx.trx, id))!) };
    });
    // The invitee's open app shows it at once (their Invites tab and its badge).
    await tellInvitees(app, emailKeyOf(request.body.inviteeEmail));
    return sent;
  });

  app.post('/api/collaboration/series/:seriesId/invite-links', { schema: { params: seriesParams, body: inviteLinkBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const access = await accessAt(ctx.trx, request.params.seriesId, ctx.userId, 'manage');
      assertCollaborationPlan(await ownerPlan(ctx.trx, access.seriesId));
      const token = newToken();
      const { role } = request.body;
      const id = await insertInvite(ctx, {
        seriesId: access.seriesId, inviterId: ctx.userId, inviteeEmail: null, inviteeEmailKey: null, tokenHash: hashToken(token), role, message: null,
        expiresAt: inviteExpiresAt(new Date(ctx.now)),
      });
      await recordActivity(ctx, access.seriesId, 'member.invited', { invitee: 'a single-use link', role });
      ctx.touch(access.seriesId);
      return { status: 201, body: { invite: await inviteAnswer(ctx.trx, (await findInvite(ctx.trx, id))!), token } };
    }),
  );

  app.get('/api/collaboration/pending-invites', async (request) => {
    const user = requireUser(request);
    const emailKey = await emailKeyOfUser(db, user.id);
    return emailKey === null ? [] : pendingInvitesFor(db, emailKey, new Date().toISOString());
  });

  // An answer reaches the invitee's other tabs and devices too.
  app.post('/api/collaboration/invites/:id/accept', { schema: { params: idParams, body: noBody } }, async (request, reply) => {
    const answered = await write(request, reply, async (ctx) => {
      const invite = await inviteForInvitee(ctx, request.params.id);
      assertAnswerable(invite, ctx.now);
      await join(ctx, invite);
      return acceptedAnswer(ctx, invite);
    });
    await tellInvitees(app, null, [requireUser(request).id]);
    return answered;
  });

  app.post('/api/collaboration/invites/:id/decline', { schema: { params: idParams, body: noBody } }, async (request, reply) => {
    const answered = await write(request, reply, async (ctx) => {
      const invite = await inviteForInvitee(ctx, request.params.id);
      assertAnswerable(invite, ctx.now);
      if (!(await answerInvite(ctx, invite.id, 'declined'))) throw new HttpError(409, ERROR_CODES.conflict, INVITE_MESSAGES.notPending);
      await recordActivity(ctx, invite.seriesId, 'member.declined');
      ctx.touch(invite.seriesId);
      return ok(await inviteAnswer(ctx.trx, (await findInvite(ctx.trx, invite.id))!));
    });
    await tellInvitees(app, null, [requireUser(request).id]);
    return answered;
  });

  /** The single-use link: whoever signs in with it joins, whatever their e-mail; then it is spent. */
  app.post('/api/collaboration/invite-links/accept', { schema: { body: tokenBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const invite = await findInviteByToken(ctx.trx, request.body.token);
      const series = invite ? await findRow(ctx.trx, 'series', invite.seriesId) : null;
      if (!invite || !series || series.deletedAt !== null) throw notFound();
      if (invite.status !== 'pending') throw new HttpError(410, ERROR_CODES.gone, INVITE_MESSAGES.linkUsed);
      assertAnswerable(invite, ctx.now);
      await join(ctx, invite);
      return acceptedAnswer(ctx, invite);
    }),
  );

  /** Revoking a pending invite: the series' owner and admins. */
  app.delete('/api/collaboration/invites/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) => {
    let addressee: string | null = null;
    const revoked = await write(request, reply, async (ctx) => {
      const invite = await findInvite(ctx.trx, request.params.id);
      if (!invite) throw notFound();
      addressee = invite.inviteeEmailKey;
      await accessAt(ctx.trx, invite.seriesId, ctx.userId, 'manage');
      if (invite.status !== 'pending' || !(await answerInvite(ctx, invite.id, 'revoked'))) throw new HttpError(409, ERROR_CODES.conflict, INVITE_MESSAGES.notPending);
      await recordActivity(ctx, invite.seriesId, 'invite.revoked', { invitee: invite.inviteeEmail ?? 'a single-use link' });
      ctx.touch(invite.seriesId);
      return ok(await inviteAnswer(ctx.trx, (await findInvite(ctx.trx, invite.id))!));
    });
    // Gone from the invitee's open app at once.
    await tellInvitees(app, addressee);
    return revoked;
  });

  // --- presence: who else is in a chapter now (live.ts) ---------------------------------------

  registerPresenceRoutes(app);

  // --- members ----------------------------------------------------------------------------------

  app.put('/api/collaboration/series/:seriesId/members/:userId', { schema: { params: memberParams, body: changeRoleBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const { seriesId, userId } = request.params;
      const { access } = await managedMember(ctx, seriesId, userId, request.body.role);
      await putMembership(ctx, access.seriesId, userId, request.body.role);
      await recordActivity(ctx, access.seriesId, 'member.roleChanged', { member: await displayNameOf(ctx.trx, userId), role: request.body.role });
      return ok({ members: await listMembers(ctx.trx, access.seriesId, access.ownerId) });
    }),
  );

  app.delete('/api/collaboration/series/:seriesId/members/:userId', { schema: { params: memberParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const { seriesId, userId } = request.params;
      const { access } = await managedMember(ctx, seriesId, userId);
      await endMembership(ctx, access.seriesId, userId);
      await recordActivity(ctx, access.seriesId, 'member.removed', { member: await displayNameOf(ctx.trx, userId) });
      return ok({ members: await listMembers(ctx.trx, access.seriesId, access.ownerId) });
    }),
  );

  app.post('/api/collaboration/series/:seriesId/leave', { schema: { params: seriesParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const access = await accessAt(ctx.trx, request.params.seriesId, ctx.userId, 'read');
      if (access.role === 'owner') throw forbidden(ROLE_MESSAGES.ownerCannotLeave);
      await endMembership(ctx, access.seriesId, ctx.userId);
      await recordActivity(ctx, access.seriesId, 'member.left');
      return ok({ left: access.seriesId });
    }),
  );

  /** The owner hands the series to a member, who must have room for it on their plan; the old owner stays as an admin. */
  app.post('/api/collaboration/series/:seriesId/transfer', { schema: { params: seriesParams, body: transferBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const access = await accessAt(ctx.trx, request.params.seriesId, ctx.userId, 'own');
      const { userId } = request.body;
      if (userId === ctx.userId || (await liveMemberRole(ctx.trx, access.seriesId, userId)) === null) throw notFound();
      await assertCreateLimit(ctx.trx, 'series', { ownerId: userId });
      await updateRow(ctx, 'series', access.seriesId, { ownerId: userId });
      await endMembership(ctx, access.seriesId, userId);
      await putMembership(ctx, access.seriesId, ctx.userId, 'admin');
      await recordActivity(ctx, access.seriesId, 'series.transferred', { member: await displayNameOf(ctx.trx, userId) });
      return ok({ members: await listMembers(ctx.trx, access.seriesId, userId) });
    }),
  );
}
