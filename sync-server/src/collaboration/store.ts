/**
 * The storage side of collaboration (docs/server.md#collaboration): memberships (series_members),
 * invites, the collaborative marks of series and the activity record. Portable Kysely only
 * (db/README.md).
 *
 * Every membership write stamps rev = the write's seq: the changes feed reads a live membership
 * written after the cursor as the series entering the member's scope (all its rows are sent) and a
 * tombstoned one as the series leaving it (sync/changes.ts).
 */
import crypto from 'node:crypto';
import {
  type ActivityAction,
  type ActivityEntry,
  type CollaborativeSeries,
  type Invite,
  type InviteRole,
  type InviteStatus,
  type SeriesMember,
  memberRoleOf,
  newId,
} from '@chronicler/schema';
import type { CollaborationInvitesTable } from '../db/tables.ts';
import type { Db } from '../entities/queries.ts';
import type { MutationContext } from '../entities/writes.ts';

/** The series the user owns or is a live member of, as the Collaboration page lists them. */
export async function listCollaborativeSeries(db: Db, userId: string, now: string): Promise<CollaborativeSeries[]> {
  const rows = await db
    .selectFrom('series')
    .innerJoin('users as owner', 'owner.id', 'series.ownerId')
    .leftJoin('seriesMembers as mine', (join) =>
      join.onRef('mine.seriesId', '=', 'series.id').on('mine.userId', '=', userId).on('mine.deletedAt', 'is', null),
    )
    .leftJoin('collaborativeSeries as mark', 'mark.seriesId', 'series.id')
    .select((eb) => [
      'series.id',
      'series.title',
      'series.description',
      'series.ownerId',
      'series.createdAt',
      'owner.displayName as ownerName',
      'mine.role as memberRole',
      'mark.isPublic',
      eb
        .selectFrom('seriesMembers as m')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('m.seriesId', '=', 'series.id')
        .where('m.deletedAt', 'is', null)
        .whereRef('m.userId', '!=', 'series.ownerId')
        .as('memberCount'),
      eb
        .selectFrom('collaborationInvites as i')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('i.seriesId', '=', 'series.id')
        .where('i.status', '=', 'pending')
        .where('i.expiresAt', '>', now)
        .as('pendingInviteCount'),
    ])
    .where('series.deletedAt', 'is', null)
    .where((eb) => eb.or([eb('series.ownerId', '=', userId), eb('mine.userId', '=', userId)]))
    .orderBy('series.createdAt', 'asc')
    .orderBy('series.id', 'asc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.title,
    description: r.description,
    isPublic: Number(r.isPublic ?? 0) === 1,
    ownerId: r.ownerId,
    ownerName: r.ownerName,
    createdAt: r.createdAt,
    role: r.ownerId === userId ? 'owner' : memberRoleOf(String(r.memberRole)),
    memberCount: Number(r.memberCount ?? 0),
    pendingInviteCount: r.ownerId === userId || r.memberRole === 'admin' ? Number(r.pendingInviteCount ?? 0) : 0,
  }));
}

export async function markCollaborative(ctx: MutationContext, seriesId: string, isPublic: boolean): Promise<void> {
  await ctx.trx.insertInto('collaborativeSeries').values({ seriesId, isPublic: isPublic ? 1 : 0, createdAt: ctx.now }).execute();
}

// ---------------------------------------------------------------------------------------------
// Members

/** The owner first, then the live members by when they joined. */
export async function listMembers(db: Db, seriesId: string, ownerId: string): Promise<SeriesMember[]> {
  const owner = await db.selectFrom('users').select(['id', 'displayName', 'username']).where('id', '=', ownerId).executeTakeFirst();
  const series = await db.selectFrom('series').select('createdAt').where('id', '=', seriesId).executeTakeFirst();
  const rows = await db
    .selectFrom('seriesMembers as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .select(['m.userId', 'm.role', 'm.createdAt', 'u.displayName', 'u.username'])
    .where('m.seriesId', '=', seriesId)
    .where('m.deletedAt', 'is', null)
    .where('m.userId', '!=', ownerId)
    .orderBy('m.createdAt', 'asc')
    .orderBy('m.userId', 'asc')
    .execute();
  const members: SeriesMember[] = rows.map((r) => ({
    userId: r.userId,
    displayName: r.displayName,
    username: r.username,
    role: memberRoleOf(r.role),
    joinedAt: r.createdAt,
  }));
  if (owner) members.unshift({ userId: owner.id, displayName: owner.displayName, username: owner.username, role: 'owner', joinedAt: series?.createdAt ?? '' });
  return members;
}

/** The live membership role of a user in a series, or null. */
export async function liveMemberRole(db: Db, seriesId: string, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('seriesMembers')
    .select('role')
    .where('seriesId', '=', seriesId)
    .where('userId', '=', userId)
    .where('deletedAt', 'is', null)
    .executeTakeFirst();
  return row ? row.role : null;
}

/** Joins (or re-joins, or changes the role of) a member, stamped with this write's seq. */
export async function putMembership(ctx: MutationContext, seriesId: string, userId: string, role: InviteRole): Promise<void> {
  const existing = await ctx.trx.selectFrom('seriesMembers').select('deletedAt').where('seriesId', '=', seriesId).where('userId', '=', userId).executeTakeFirst();
  if (existing) {
    const rejoin = existing.deletedAt !== null;
    await ctx.trx
      .updateTable('seriesMembers')
      .set({ role, rev: ctx.seq, updatedAt: ctx.now, deletedAt: null, ...(rejoin ? { createdAt: ctx.now } : {}) })
      .where('seriesId', '=', seriesId)
      .where('userId', '=', userId)
      .execute();
  } else {
    await ctx.trx.insertInto('seriesMembers').values({ seriesId, userId, role, rev: ctx.seq, createdAt: ctx.now, updatedAt: ctx.now, deletedAt: null }).execute();
  }
  ctx.touch(seriesId);
}

/** Ends a membership: a tombstone, so the member's next pull drops the series (scopeRemoved). */
export async function endMembership(ctx: MutationContext, seriesId: string, userId: string): Promise<void> {
  await ctx.trx
    .updateTable('seriesMembers')
    .set({ rev: ctx.seq, updatedAt: ctx.now, deletedAt: ctx.now })
    .where('seriesId', '=', seriesId)
    .where('userId', '=', userId)
    .where('deletedAt', 'is', null)
    .execute();
  ctx.touch(seriesId);
}

export async function displayNameOf(db: Db, userId: string): Promise<string> {
  const row = await db.selectFrom('users').select('displayName').where('id', '=', userId).executeTakeFirst();
  return row?.displayName ?? 'Someone';
}

export async function emailKeyOfUser(db: Db, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('emailKey').where('id', '=', userId).executeTakeFirst();
  return row?.emailKey ?? null;
}

/** Users with this e-mail key (the key is not unique: two accounts may share an address). */
export async function userIdsWithEmail(db: Db, emailKey: string): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('emailKey', '=', emailKey).execute();
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Invites

/** An invite as this module reads it: the stored row without its answer bookkeeping. */
export type StoredInvite = Omit<CollaborationInvitesTable, 'answeredBy' | 'updatedAt'>;

export const hashToken = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');
export const newToken = (): string => crypto.randomBytes(24).toString('base64url');

const inviteColumns = [
  'i.id', 'i.seriesId', 'i.inviterId', 'i.inviteeEmail', 'i.inviteeEmailKey', 'i.tokenHash', 'i.role', 'i.message', 'i.status', 'i.expiresAt', 'i.createdAt',
] as const;

export async function findInvite(db: Db, id: string): Promise<StoredInvite | null> {
  const row = await db.selectFrom('collaborationInvites as i').select(inviteColumns).where('i.id', '=', id).executeTakeFirst();
  return row ?? null;
}

export async function findInviteByToken(db: Db, token: string): Promise<StoredInvite | null> {
  const row = await db.selectFrom('collaborationInvites as i').select(inviteColumns).where('i.tokenHash', '=', hashToken(token)).executeTakeFirst();
  return row ?? null;
}

/** The pending e-mail invite of `seriesId` to `emailKey`, if one is out (a second invite refreshes it). */
export async function findPendingInviteTo(db: Db, seriesId: string, emailKey: string): Promise<StoredInvite | null> {
  const row = await db
    .selectFrom('collaborationInvites as i')
    .select(inviteColumns)
    .where('i.seriesId', '=', seriesId)
    .where('i.inviteeEmailKey', '=', emailKey)
    .where('i.status', '=', 'pending')
    .executeTakeFirst();
  return row ?? null;
}

export async function insertInvite(
  ctx: MutationContext,
  values: Omit<StoredInvite, 'id' | 'status' | 'createdAt'>,
): Promise<string> {
  const id = newId();
  await ctx.trx
    .insertInto('collaborationInvites')
    .values({ ...values, id, status: 'pending', answeredBy: null, createdAt: ctx.now, updatedAt: ctx.now })
    .execute();
  return id;
}

export async function refreshInvite(ctx: MutationContext, id: string, values: { inviterId: string; role: string; message: string | null; expiresAt: string }): Promise<void> {
  await ctx.trx.updateTable('collaborationInvites').set({ ...values, createdAt: ctx.now, updatedAt: ctx.now }).where('id', '=', id).execute();
}

/** Answers a pending invite; false when it was no longer pending (answered in between). */
export async function answerInvite(ctx: MutationContext, id: string, status: Exclude<InviteStatus, 'pending'>): Promise<boolean> {
  const result = await ctx.trx
    .updateTable('collaborationInvites')
    .set({ status, answeredBy: ctx.userId, updatedAt: ctx.now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Invites in their answer shape, with the inviter's and the series' names. */
async function toInvites(db: Db, rows: StoredInvite[]): Promise<Invite[]> {
  if (rows.length === 0) return [];
  const users = await db.selectFrom('users').select(['id', 'displayName']).where('id', 'in', [...new Set(rows.map((r) => r.inviterId))]).execute();
  const series = await db.selectFrom('series').select(['id', 'title']).where('id', 'in', [...new Set(rows.map((r) => r.seriesId))]).execute();
  const nameOf = new Map(users.map((u) => [u.id, u.displayName]));
  const titleOf = new Map(series.map((s) => [s.id, s.title]));
  return rows.map((r) => ({
    id: r.id,
    inviterId: r.inviterId,
    inviterName: nameOf.get(r.inviterId) ?? 'Someone',
    collaborativeSeriesId: r.seriesId,
    seriesName: titleOf.get(r.seriesId) ?? '',
    role: memberRoleOf(r.role) as InviteRole,
    message: r.message,
    expiresAt: r.expiresAt,
    inviteeEmail: r.inviteeEmail,
    status: r.status as InviteStatus,
    createdAt: r.createdAt,
  }));
}

export async function inviteAnswer(db: Db, invite: StoredInvite): Promise<Invite> {
  const [answer] = await toInvites(db, [invite]);
  return answer!;
}

/** Pending, unexpired invites addressed to `emailKey`, in live series, newest first. */
export async function pendingInvitesFor(db: Db, emailKey: string, now: string): Promise<Invite[]> {
  const rows = await db
    .selectFrom('collaborationInvites as i')
    .innerJoin('series as s', 's.id', 'i.seriesId')
    .select(inviteColumns)
    .where('i.inviteeEmailKey', '=', emailKey)
    .where('i.status', '=', 'pending')
    .where('i.expiresAt', '>', now)
    .where('s.deletedAt', 'is', null)
    .orderBy('i.createdAt', 'desc')
    .orderBy('i.id', 'asc')
    .execute();
  return toInvites(db, rows);
}

/** Pending, unexpired invites of a series (what its managers see). */
export async function pendingInvitesOf(db: Db, seriesId: string, now: string): Promise<Invite[]> {
  const rows = await db
    .selectFrom('collaborationInvites as i')
    .select(inviteColumns)
    .where('i.seriesId', '=', seriesId)
    .where('i.status', '=', 'pending')
    .where('i.expiresAt', '>', now)
    .orderBy('i.createdAt', 'desc')
    .orderBy('i.id', 'asc')
    .execute();
  return toInvites(db, rows);
}

// ---------------------------------------------------------------------------------------------
// Activity

export async function recordActivity(ctx: MutationContext, seriesId: string, action: ActivityAction, detail: Record<string, string> = {}): Promise<void> {
  await ctx.trx
    .insertInto('seriesActivity')
    .values({ id: newId(), seriesId, userId: ctx.userId, action, detail: JSON.stringify(detail), seq: ctx.seq, createdAt: ctx.now })
    .execute();
}

const CONTENT_KINDS: Readonly<Record<string, { field: string; noun: string }>> = {
  books: { field: 'title', noun: 'book' },
  chapters: { field: 'title', noun: 'chapter' },
  characters: { field: 'name', noun: 'character' },
  locations: { field: 'name', noun: 'location' },
  timelineEvents: { field: 'title', noun: 'event' },
};

/**
 * The series' activity, newest first: membership events as recorded, and content changes read from
 * the revision history (every story write keeps one, with its author), so story writes need no
 * second record.
 */
export async function listActivity(db: Db, seriesId: string, limit: number): Promise<ActivityEntry[]> {
  const recorded = await db
    .selectFrom('seriesActivity')
    .select(['id', 'seriesId', 'userId', 'action', 'detail', 'seq', 'createdAt'])
    .where('seriesId', '=', seriesId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  const revisions = await db
    .selectFrom('revisions')
    .select(['entity', 'entityId', 'rev', 'userId', 'snapshot', 'createdAt'])
    .where('seriesId', '=', seriesId)
    .where('entity', 'in', Object.keys(CONTENT_KINDS))
    .where('userId', 'is not', null)
    .orderBy('rev', 'desc')
    .limit(limit)
    .execute();
  const entries: Array<Omit<ActivityEntry, 'userName'> & { seq: number }> = recorded.map((r) => ({
    id: r.id,
    seriesId: r.seriesId,
    userId: r.userId,
    action: r.action as ActivityAction,
    detail: JSON.parse(r.detail) as Record<string, string>,
    createdAt: r.createdAt,
    seq: Number(r.seq),
  }));
  for (const r of revisions) {
    const kind = CONTENT_KINDS[r.entity]!;
    const row = JSON.parse(r.snapshot) as Record<string, unknown>;
    const verb = row.deletedAt ? 'deleted' : Number(row.rev) === Number(r.rev) && row.createdAt === row.updatedAt ? 'added' : 'edited';
    entries.push({
      id: `${r.entity}:${r.entityId}:${r.rev}`,
      seriesId,
      userId: r.userId!,
      action: 'content.changed',
      detail: { verb: `${verb} the ${kind.noun}`, title: String(row[kind.field] ?? '') },
      createdAt: r.createdAt,
      seq: Number(r.rev),
    });
  }
  entries.sort((a, b) => b.seq - a.seq || (a.id < b.id ? -1 : 1));
  const page = entries.slice(0, limit);
  const users = page.length === 0 ? [] : await db.selectFrom('users').select(['id', 'displayName']).where('id', 'in', [...new Set(page.map((e) => e.userId))]).execute();
  const nameOf = new Map(users.map((u) => [u.id, u.displayName]));
  return page.map(({ seq: _seq, ...e }) => ({ ...e, userName: nameOf.get(e.userId) ?? 'Someone' }));
}
