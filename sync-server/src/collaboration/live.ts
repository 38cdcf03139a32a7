/**
 * What collaboration tells open apps over the sync stream that is not a commit (named events,
 * docs/sync-protocol.md#live-channel; packages/schema LIVE_EVENTS): who is in a chapter now
 * (`presence`), and that an author's pending invites changed (`invites`). Both go through the hub
 * to the authors' open streams.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type PresenceEventData, PRESENCE_HEARTBEAT_MS } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { afterCommit } from '../db/shared-transaction.ts';
import { assertAccessible } from '../entities/queries.ts';
import { idParams, noBody } from '../routes/kit.ts';
import { type PresenceChange, PresenceBoard } from './presence.ts';
import { sharedPresence } from './presence-across-instances.ts';
import { userIdsWithEmail } from './store.ts';

/** How often entries not renewed within the TTL are looked for. */
const SWEEP_MS = Math.round(PRESENCE_HEARTBEAT_MS / 3);

/**
 * POST /api/collaboration/chapters/{id}/presence — "I am in this chapter" (on entering, then as a
 * keep-alive); answers the others there now. DELETE — "I left". Read access to the chapter is
 * enough (a viewer is present too). Every change is told to the series' owner and members.
 */
export function registerPresenceRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, hub } = app.deps;
  const { db } = database;
  const board = new PresenceBoard();
  // On PostgreSQL every instance keeps the whole board (presence-across-instances.ts).
  const presence = sharedPresence(board);
  if (database.openInstanceChannel) {
    database.openInstanceChannel().then(
      (channel) => presence.shareThrough(channel, (message) => app.log.warn(message)),
      () => app.log.warn('presence is not shared with the other instances: the announcement channel did not open'),
    );
  }

  const announce = (changes: PresenceChange[]) => {
    for (const { chapterId, seriesId } of changes) {
      const data: PresenceEventData = { chapterId, present: board.present(chapterId) };
      void hub.audienceOf([seriesId]).then(
        (audience) => hub.tell(audience, { event: 'presence', data }),
        () => undefined, // a failed audience read loses one announcement; the next heartbeat answers the truth
      );
    }
  };

  // A closed tab or app closes its author's stream: out of every chapter at once.
  const stopHearing = hub.onAuthorGone((userId) => announce(presence.gone(userId)));
  const sweeper = setInterval(() => {
    if (!board.isEmpty) announce(board.sweep(Date.now()));
  }, SWEEP_MS);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    stopHearing();
  });

  app.post('/api/collaboration/chapters/:id/presence', { schema: { params: idParams, body: noBody } }, async (request) => {
    const user = requireUser(request);
    const access = await assertAccessible(db, 'chapters', request.params.id, user.id);
    const change = presence.enter(request.params.id, access.seriesId, user.id, user.displayName, Date.now());
    if (change) announce([change]);
    return { present: board.present(request.params.id).filter((p) => p.userId !== user.id) };
  });

  app.delete('/api/collaboration/chapters/:id/presence', { schema: { params: idParams, body: noBody } }, async (request) => {
    const user = requireUser(request);
    await assertAccessible(db, 'chapters', request.params.id, user.id);
    const change = presence.leave(request.params.id, user.id);
    if (change) announce([change]);
    return { present: board.present(request.params.id) };
  });
}

/**
 * Once the surrounding write is durable: the authors with e-mail `emailKey` (an invite's addressees)
 * and `userIds` read their pending invites again.
 */
export async function tellInvitees(app: FastifyInstance, emailKey: string | null, userIds: string[] = []): Promise<void> {
  const addressees = emailKey === null ? [] : await userIdsWithEmail(app.deps.database.db, emailKey);
  afterCommit(() => app.deps.hub.tell(new Set([...addressees, ...userIds]), { event: 'invites', data: {} }));
}
