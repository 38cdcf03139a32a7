/**
 * The author's own settings, stored on their record (the user-scoped kind `users`, which syncs to
 * every device of theirs):
 * - PUT /api/user/settings {timeZone} → the record as written. `timeZone` is an IANA zone the
 *   runtime's Intl knows (else 400 "Unknown time zone"), or null. The web app sets it from the
 *   browser when the stored one is empty.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { updateUserSettingsBodySchema } from '@chronicler/schema';
import { markUserChanged } from '../entities/user-rows.ts';
import { requireUser } from '../http/caller.ts';
import { ok, write } from '../routes/kit.ts';

export function registerSettingsRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.put('/api/user/settings', { schema: { body: updateUserSettingsBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const { timeZone } = request.body;
    return write(request, reply, async (ctx) => ok(await markUserChanged(ctx, user.id, { timeZone })));
  });
}
