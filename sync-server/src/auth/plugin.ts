/**
 * Accounts and sessions (spec 000 §7; docs/server.md#sessions-and-accounts). Wrapped with
 * fastify-plugin so the `onRequest` hook that resolves the session cookie to `request.user` applies
 * to every route.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ERROR_CODES,
  GENERIC_MESSAGES,
  type LoginBody,
  type RegisterBody,
  loginBodySchema,
  registerBodySchema,
  userSchema,
} from '@chronicler/schema';
import { type AuthUser, requireUser, sessionTokenOf } from '../http/caller.ts';
import { HttpError, unauthenticated } from '../http/errors.ts';
import { limitConcurrentPasswordWork } from '../http/unread-bodies.ts';
import { type Clock, systemClock } from './clock.ts';
import { dummyPasswordHash, verifyPassword } from './password.ts';
import { assertPasswordAllowed } from './account-rules.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { registerSettingsRoutes } from './settings-routes.ts';
import {
  cachedSessionUser,
  clearSessionCookie,
  cookieIsSecure,
  createSession,
  destroySession,
  forgetUserSessions,
  shareSessionCache,
  pruneExpiredSessions,
  resolveSession,
  setSessionCookie,
} from './session.ts';
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_S,
  deviceToken,
  isKnownAddress,
  isKnownDevice,
  pruneThrottle,
  recordSignIn,
  sendRateLimited,
  takeAccountAttempt,
  takeIpAttempt,
} from './throttle.ts';
import { createUser, findUserByUsername, toAuthUser, usernameKeyOf } from './users.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers anonymous callers too (sign-in, registration, health); every other /api route needs a session. */
    public?: boolean;
    /** The route hashes a password: parallel ones from one address are refused (429) before they queue. */
    passwordWork?: boolean;
  }
  interface FastifyInstance {
    /** The auth module's time source; tests replace `now`. */
    authClock: Clock;
  }
}

const HOUSEKEEPING_INTERVAL_MS = 60 * 1000;

const invalidCredentials = () => new HttpError(401, ERROR_CODES.invalidCredentials, GENERIC_MESSAGES.invalidCredentials);

async function authPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const { db } = database;
  app.decorate('authClock', systemClock());
  app.decorateRequest('user', null);
  const dummyHash = dummyPasswordHash(config.scrypt);

  // A commit's effect (sync/hub.ts): once a write that changed authors' records (plan, name) is
  // durable — this process's, or another's found by the foreign-commit watch — their cached
  // sessions are read afresh on their next request (session.ts SessionCache).
  const stopForgetting = app.deps.hub.subscribe((notice) => {
    for (const userId of notice.records ?? []) forgetUserSessions(db, userId);
  });
  app.addHook('onClose', async () => stopForgetting());
  // Several instances on PostgreSQL: sessions are cached while the instances hear one another's
  // session ends (session-cache.ts); without the channel nothing is cached.
  if (database.openInstanceChannel) {
    const channel = await database.openInstanceChannel();
    shareSessionCache(db, channel, (message) => app.log.warn(message));
  }

  // A callback hook, not an async one: a session resolved lately is answered from memory without
  // a promise (this runs on every request).
  app.addHook('onRequest', (request, reply, done) => {
    request.user = null;
    const token = sessionTokenOf(request);
    if (!token) return done();
    const now = app.authClock.now();
    const cached = cachedSessionUser(db, token, now);
    if (cached) {
      request.user = cached;
      return done();
    }
    resolveSession(db, config, token, now).then((session) => {
      if (session) {
        request.user = session.user;
        if (session.extended) setSessionCookie(request, reply, config, token);
      }
      done();
    }, done);
  });

  // Protected /api routes answer an anonymous caller 401 here, before its body is read, parsed or
  // validated (public routes say so with `config.public`; unknown paths fall through to the 404).
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    if (request.user || url === undefined || !url.startsWith('/api/') || request.routeOptions.config.public === true) return done();
    void reply.status(401).send(unauthenticated().toBody());
  });

  // Password work (login, register, password change) from one address, at most so many at once:
  // more answers 429 at once rather than queueing everyone's sign-in behind its hashes.
  const passwordWork = limitConcurrentPasswordWork();
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.passwordWork === true) return passwordWork.call(app, request, reply, done);
    done();
  });

  /** Old sessions and throttle rows are removed as a side effect of logins, at most once a minute. */
  let lastHousekeeping = -Infinity;
  async function housekeeping(now: number): Promise<void> {
    if (now - lastHousekeeping < HOUSEKEEPING_INTERVAL_MS) return;
    lastHousekeeping = now;
    await pruneExpiredSessions(db, now);
    await pruneThrottle(db, now);
  }

  /**
   * Starts a fresh session for `user`, ending the one the request came with (no session fixation);
   * this device and address become known to the account (they pass its login slow-down).
   */
  async function signIn(request: FastifyRequest, reply: FastifyReply, user: AuthUser, now: number, known: boolean): Promise<void> {
    const previous = sessionTokenOf(request);
    if (previous) await destroySession(db, config, previous);
    const token = await createSession(db, config, user.id, now, request.headers['user-agent'] ?? null);
    setSessionCookie(request, reply, config, token);
    const usernameKey = usernameKeyOf(user.username);
    await recordSignIn(db, usernameKey, request.ip, known, now);
    reply.setCookie(DEVICE_COOKIE, deviceToken(config.sessionSecret, usernameKey), {
      httpOnly: true,
      sameSite: 'lax',
      path: '/api/',
      secure: cookieIsSecure(request, config),
      maxAge: DEVICE_COOKIE_MAX_AGE_S,
    });
    request.user = user;
  }

  /** A device or address this account signed in from before. */
  async function isKnownCaller(request: FastifyRequest, usernameKey: string, now: number): Promise<boolean> {
    return isKnownDevice(config.sessionSecret, usernameKey, request.cookies[DEVICE_COOKIE]) || (await isKnownAddress(db, usernameKey, request.ip, now));
  }

  const userResponse = { response: { 200: userSchema, 201: userSchema } };

  const register = async (request: FastifyRequest<{ Body: RegisterBody }>, reply: FastifyReply) => {
    const now = app.authClock.now();
    const wait = await takeIpAttempt(db, config, request.ip, now);
    if (wait > 0) return sendRateLimited(reply, wait);
    await housekeeping(now);
    const body = request.body;
    assertPasswordAllowed(body.password, body.username);
    const user = await createUser(app.deps, { username: body.username, password: body.password, displayName: body.displayName, email: body.email }, config.scrypt, now);
    await signIn(request, reply, user, now, false);
    return reply.status(201).send(user);
  };

  const login = async (request: FastifyRequest<{ Body: LoginBody }>, reply: FastifyReply) => {
    const now = app.authClock.now();
    const ipWait = await takeIpAttempt(db, config, request.ip, now);
    if (ipWait > 0) return sendRateLimited(reply, ipWait);
    await housekeeping(now);
    const usernameKey = usernameKeyOf(request.body.username);
    // Counted before the (slow) hash: parallel guesses cannot all slip under the limit.
    const known = await isKnownCaller(request, usernameKey, now);
    const accountWait = await takeAccountAttempt(db, config, usernameKey, known, now);
    if (accountWait > 0) return sendRateLimited(reply, accountWait);

    const row = await findUserByUsername(db, request.body.username);
    // Unknown users are checked against a dummy hash so both failures cost the same time.
    const passwordOk = await verifyPassword(request.body.password, row?.passwordHash ?? dummyHash);
    if (!row || !passwordOk) throw invalidCredentials();
    const user = toAuthUser(row);
    await signIn(request, reply, user, now, known);
    return reply.status(200).send(user);
  };

  for (const url of ['/api/register', '/api/auth/register']) {
    app.post(url, { schema: { body: registerBodySchema, ...userResponse }, config: { public: true, passwordWork: true } }, register);
  }
  for (const url of ['/api/login', '/api/auth/login']) {
    app.post(url, { schema: { body: loginBodySchema, ...userResponse }, config: { public: true, passwordWork: true } }, login);
  }

  app.post('/api/logout', { config: { public: true } }, async (request, reply) => {
    const token = sessionTokenOf(request);
    if (token) await destroySession(db, config, token);
    clearSessionCookie(request, reply, config);
    request.user = null;
    return { ok: true as const };
  });

  registerAccountRoutes(app, () => app.authClock);
  registerSettingsRoutes(app);

  app.get('/api/user', { schema: { response: { 200: userSchema } }, config: { public: true } }, async (request) => requireUser(request));
}

export default fp(authPlugin, { name: 'chronicler-auth', dependencies: ['@fastify/cookie'] });
