/**
 * The author's own sessions and password (docs/server.md#sessions-and-accounts), server side:
 * - GET    /api/user/sessions                    → the live sessions, `current` marking this one;
 * - DELETE /api/user/sessions/:id                → ends one of them (404 for another's or unknown);
 * - POST   /api/user/sessions/sign-out-others    → ends all but this one;
 * - POST   /api/logout/everywhere                → ends all, this one too;
 * - POST   /api/user/password {currentPassword, newPassword} → asks the current password (counted
 *   like a login attempt, so a borrowed session cannot guess it), applies the password rules,
 *   then signs out everywhere else and gives this device a fresh session.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, MESSAGES, MINIMUMS } from '@chronicler/schema';
import { HttpError, notFound } from '../http/errors.ts';
import { requireUser, sessionTokenOf } from '../http/caller.ts';
import { idParams } from '../routes/kit.ts';
import type { Clock } from './clock.ts';
import { assertPasswordAllowed } from './account-rules.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  clearSessionCookie,
  createSession,
  destroyUserSessions,
  listSessions,
  setSessionCookie,
} from './session.ts';
import { sendRateLimited, takeAccountAttempt } from './throttle.ts';
import { findUserByUsername, setUserPasswordHash, usernameKeyOf } from './users.ts';

export const CURRENT_PASSWORD_WRONG = 'The current password is not correct';

export const changePasswordBodySchema = z.strictObject({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, { error: 'Current password is required' }).max(200),
  newPassword: z
    .string({ error: MESSAGES.auth.passwordRequired })
    .min(MINIMUMS.password, { error: MESSAGES.auth.passwordMin })
    .max(200, { error: 'Password must be at most 200 characters' }),
});

export function registerAccountRoutes(fastify: FastifyInstance, clock: () => Clock): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const { db } = database;

  app.get('/api/user/sessions', async (request) => {
    const user = requireUser(request);
    return { sessions: await listSessions(db, config, user.id, sessionTokenOf(request), clock().now()) };
  });

  app.delete('/api/user/sessions/:id', { schema: { params: idParams } }, async (request) => {
    const user = requireUser(request);
    const ended = await destroyUserSessions(db, config, user.id, { onlyId: request.params.id });
    if (ended === 0) throw notFound();
    return { ok: true as const };
  });

  app.post('/api/user/sessions/sign-out-others', async (request) => {
    const user = requireUser(request);
    const ended = await destroyUserSessions(db, config, user.id, { keepToken: sessionTokenOf(request) });
    return { ok: true as const, ended };
  });

  app.post('/api/logout/everywhere', async (request, reply) => {
    const user = requireUser(request);
    const ended = await destroyUserSessions(db, config, user.id);
    clearSessionCookie(request, reply, config);
    request.user = null;
    return { ok: true as const, ended };
  });

  app.post('/api/user/password', { schema: { body: changePasswordBodySchema }, config: { passwordWork: true } }, async (request, reply) => {
    const user = requireUser(request);
    const now = clock().now();
    const wait = await takeAccountAttempt(db, config, usernameKeyOf(user.username), true, now);
    if (wait > 0) return sendRateLimited(reply, wait);
    const row = await findUserByUsername(db, user.username);
    if (!row || row.id !== user.id) throw notFound();
    if (!(await verifyPassword(request.body.currentPassword, row.passwordHash))) {
      throw new HttpError(422, ERROR_CODES.validation, CURRENT_PASSWORD_WRONG, { currentPassword: CURRENT_PASSWORD_WRONG });
    }
    assertPasswordAllowed(request.body.newPassword, user.username, 'newPassword');
    await setUserPasswordHash(db, user.id, await hashPassword(request.body.newPassword, config.scrypt), now);
    // Signed out everywhere: every session ends, this device gets a fresh one.
    await destroyUserSessions(db, config, user.id);
    const token = await createSession(db, config, user.id, now, request.headers['user-agent'] ?? null);
    setSessionCookie(request, reply, config, token);
    return { ok: true as const };
  });
}
