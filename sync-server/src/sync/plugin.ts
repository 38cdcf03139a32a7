/**
 * The sync read side (docs/sync-protocol.md): the changes feed, the SSE pokes (with the watch for
 * commits made by other processes), and the batch endpoint that replays outbox entries through
 * their REST routes.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { changesQuerySchema } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { currentSeq, readChangesJson } from './changes.ts';
import { registerBatchRoute } from './batch.ts';
import { registerEventsRoute } from './events.ts';
import { watchForeignCommits } from './foreign-commits.ts';
import { bridgeInstances } from './instance-bridge.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';

export default async function syncPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/sync/changes', { schema: { querystring: changesQuerySchema } }, async (request, reply) => {
    const user = requireUser(request);
    // Already JSON bytes (a ChangesResponse): no serializer walks megabytes of chapter text again.
    const page = await readChangesJson(db, user.id, request.query.since, request.query.limit);
    return reply.header('cache-control', 'no-store').type(JSON_CONTENT_TYPE).send(page);
  });

  registerEventsRoute(app);
  registerBatchRoute(app);

  // Commits of other processes (the operator command's plan changes) reach the SSE hub too.
  const foreignCommits = await watchForeignCommits(db, app.deps.hub);
  app.addHook('onClose', async () => foreignCommits.stop());

  // Several instances on PostgreSQL: commits and named events cross between them (instance-bridge.ts).
  const { database } = app.deps;
  if (database.openInstanceChannel) {
    const channel = await database.openInstanceChannel();
    const bridge = bridgeInstances(app.deps.hub, channel, () => currentSeq(db), (message) => app.log.warn(message));
    app.addHook('onClose', async () => bridge.stop());
  }
}
