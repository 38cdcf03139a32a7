/**
 * Server-side sessions in SQLite (docs/server.md#sessions-and-accounts). The cookie holds a random
 * 32-byte token; the table holds only HMAC-SHA256(sessionSecret, token), so a leaked table or
 * backup cannot be replayed as a cookie. Expiry slides with use, written at most once an hour per
 * session, but never past `sessionMaxAgeDays` after sign-in (absolute lifetime). An author keeps at
 * most MAX_SESSIONS_PER_USER sessions: a new sign-in ends the least recently used beyond that.
 *
 * Resolved sessions are also kept in memory for a few seconds (session-cache.ts): a signed-in
 * request then needs no SQL to know its user.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type AccountSession, type PlanName, SIGNED_IN_HINT_COOKIE } from '@chronicler/schema';
import type { AppConfig } from '../config/config.ts';
import { type InstanceChannel, isExclusiveProcess } from '../db/database.ts';
import type { DB } from '../db/tables.ts';
import { type AuthUser, SESSION_COOKIE } from '../http/caller.ts';
import { SessionCache } from './session-cache.ts';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding expiry is refreshed at most this often, so reads do not turn into writes. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export function sessionIdHash(secret: string, token: string): string {
  return crypto.createHmac('sha256', secret).update(token).digest('base64url');
}

type SessionConfig = Pick<AppConfig, 'sessionSecret' | 'sessionTtlDays' | 'sessionMaxAgeDays'>;

export const MAX_SESSIONS_PER_USER = 20;

/** The sliding expiry after use at `now`, capped by the absolute lifetime from `createdAt`. */
function slidExpiry(config: SessionConfig, createdAt: number, now: number): number {
  return Math.min(now + config.sessionTtlDays * DAY_MS, createdAt + config.sessionMaxAgeDays * DAY_MS);
}

/** Stores a new session and returns its cookie token. */
export async function createSession(db: Kysely<DB>, config: SessionConfig, userId: string, now: number, userAgent: string | null = null): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      idHash: sessionIdHash(config.sessionSecret, token),
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(slidExpiry(config, now, now)).toISOString(),
      lastSeenAt: new Date(now).toISOString(),
      userAgent: userAgent === null ? null : userAgent.slice(0, 300),
    })
    .execute();
  // Beyond the per-author limit, the least recently used sessions end.
  const surplus = await db
    .selectFrom('sessions')
    .select('idHash')
    .where('userId', '=', userId)
    .orderBy('lastSeenAt', 'desc')
    .orderBy('createdAt', 'desc')
    .offset(MAX_SESSIONS_PER_USER)
    .limit(1_000)
    .execute();
  if (surplus.length > 0) {
    await db.deleteFrom('sessions').where('idHash', 'in', surplus.map((s) => s.idHash)).execute();
    sessionCacheOf(db).forgetUserEverywhere(userId);
  }
  return token;
}

export async function destroySession(db: Kysely<DB>, config: SessionConfig, token: string): Promise<void> {
  const idHash = sessionIdHash(config.sessionSecret, token);
  const cache = sessionCacheOf(db);
  cache.forget(token, null);
  const ended = await db.deleteFrom('sessions').where('idHash', '=', idHash).returning('userId').executeTakeFirst();
  // Told once the row is gone: an instance that heard it earlier could read the row again.
  cache.forget(token, ended?.userId ?? null);
}

/** One cache per database handle: tests run many apps (many databases) in one process. */
const sessionCaches = new WeakMap<Kysely<DB>, SessionCache>();

function sessionCacheOf(db: Kysely<DB>): SessionCache {
  let cache = sessionCaches.get(db);
  if (!cache) sessionCaches.set(db, (cache = new SessionCache(isExclusiveProcess(db))));
  return cache;
}

/** PostgreSQL: this database's cached sessions are kept, and ended, across instances (session-cache.ts). */
export function shareSessionCache(db: Kysely<DB>, channel: InstanceChannel, warn: (message: string) => void): void {
  sessionCacheOf(db).shareThrough(channel, warn);
}

/**
 * Call after changing a user's row (plan, name, email): their sessions are read afresh next time.
 * A synced write of the record (WriteContext.touchUser 'record') needs no call: the auth plugin
 * runs this for it once the write commits (plugin.ts, a hub listener).
 */
export function forgetUserSessions(db: Kysely<DB>, userId: string): void {
  sessionCacheOf(db).forgetUser(userId);
}

export interface ResolvedSession {
  user: AuthUser;
  /** The expiry slid forward on this request: the cookie's Max-Age should follow. */
  extended: boolean;
}

/**
 * The user of a session resolved lately, straight from memory (no SQL, no await); undefined when
 * the session must be read with resolveSession.
 */
export function cachedSessionUser(db: Kysely<DB>, token: string, now: number): AuthUser | undefined {
  const cached = sessionCacheOf(db).get(token, now, SESSION_TOUCH_INTERVAL_MS);
  return cached ? { ...cached.user } : undefined;
}

/** The user a token belongs to, or null for unknown and expired tokens (an expired row is deleted). */
export async function resolveSession(db: Kysely<DB>, config: SessionConfig, token: string, now: number): Promise<ResolvedSession | null> {
  const cache = sessionCacheOf(db);
  const cached = cache.get(token, now, SESSION_TOUCH_INTERVAL_MS);
  if (cached) return { user: { ...cached.user }, extended: false };
  const generation = cache.generation;
  const idHash = sessionIdHash(config.sessionSecret, token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select([
      'sessions.createdAt',
      'sessions.expiresAt',
      'sessions.lastSeenAt',
      'users.id',
      'users.username',
      'users.displayName',
      'users.email',
      'users.plan',
    ])
    .where('sessions.idHash', '=', idHash)
    .executeTakeFirst();
  if (!row) return null;
  const createdAt = Date.parse(row.createdAt);
  // Past its sliding expiry, or past the absolute lifetime (also for rows written before there was one).
  if (Date.parse(row.expiresAt) <= now || createdAt + config.sessionMaxAgeDays * DAY_MS <= now) {
    await db.deleteFrom('sessions').where('idHash', '=', idHash).execute();
    return null;
  }
  let expiresAt = Date.parse(row.expiresAt);
  let lastSeenAt = Date.parse(row.lastSeenAt);
  const extended = now - lastSeenAt >= SESSION_TOUCH_INTERVAL_MS;
  if (extended) {
    lastSeenAt = now;
    expiresAt = slidExpiry(config, createdAt, now);
    await db
      .updateTable('sessions')
      .set({ lastSeenAt: new Date(lastSeenAt).toISOString(), expiresAt: new Date(expiresAt).toISOString() })
      .where('idHash', '=', idHash)
      .execute();
  }
  const user = { id: row.id, username: row.username, displayName: row.displayName, email: row.email, plan: row.plan as PlanName };
  expiresAt = Math.min(expiresAt, createdAt + config.sessionMaxAgeDays * DAY_MS);
  cache.set(token, { user: { ...user }, expiresAt, lastSeenAt, readAt: performance.now() }, generation);
  return { user, extended };
}

/** The id a session is shown and addressed by: derived from the stored hash, never the cookie. */
export function publicSessionId(idHash: string): string {
  return crypto.createHash('sha256').update(`session-id\0${idHash}`).digest('base64url').slice(0, 22);
}

/** One of the author's sessions as the API shows it (the wire shape lives in packages/schema). */
export type SessionSummary = AccountSession;

/** The author's live sessions, most recently used first. */
export async function listSessions(db: Kysely<DB>, config: SessionConfig, userId: string, currentToken: string | null, now: number): Promise<SessionSummary[]> {
  const currentHash = currentToken ? sessionIdHash(config.sessionSecret, currentToken) : null;
  const minCreatedAt = new Date(now - config.sessionMaxAgeDays * DAY_MS).toISOString();
  const rows = await db
    .selectFrom('sessions')
    .select(['idHash', 'createdAt', 'lastSeenAt', 'expiresAt', 'userAgent'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', new Date(now).toISOString())
    .where('createdAt', '>', minCreatedAt)
    .orderBy('lastSeenAt', 'desc')
    .execute();
  return rows.map(({ idHash, ...row }) => ({ id: publicSessionId(idHash), ...row, current: idHash === currentHash }));
}

/**
 * Ends the author's sessions: all of them, or all but the one with `keepToken`, or only the one
 * shown as `onlyId`. Answers how many ended.
 */
export async function destroyUserSessions(
  db: Kysely<DB>,
  config: SessionConfig,
  userId: string,
  options: { keepToken?: string | null; onlyId?: string } = {},
): Promise<number> {
  const keepHash = options.keepToken ? sessionIdHash(config.sessionSecret, options.keepToken) : null;
  const rows = await db.selectFrom('sessions').select('idHash').where('userId', '=', userId).execute();
  const ending = rows
    .map((row) => row.idHash)
    .filter((idHash) => idHash !== keepHash && (options.onlyId === undefined || publicSessionId(idHash) === options.onlyId));
  if (ending.length > 0) await db.deleteFrom('sessions').where('idHash', 'in', ending).execute();
  sessionCacheOf(db).forgetUserEverywhere(userId);
  return ending.length;
}

export async function pruneExpiredSessions(db: Kysely<DB>, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expiresAt', '<=', new Date(now).toISOString()).execute();
}

export function cookieIsSecure(request: FastifyRequest, config: Pick<AppConfig, 'cookieSecure'>): boolean {
  return config.cookieSecure === 'auto' ? request.protocol === 'https' : config.cookieSecure;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AppConfig, 'cookieSecure' | 'sessionTtlDays'>,
  token: string,
): void {
  const options = { sameSite: 'lax', path: '/', secure: cookieIsSecure(request, config), maxAge: config.sessionTtlDays * 24 * 60 * 60 } as const;
  reply.setCookie(SESSION_COOKIE, token, { ...options, httpOnly: true });
  // Readable by the page: it asks GET /api/user only when a session may exist (schema session-hint.ts).
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', { ...options, httpOnly: false });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Pick<AppConfig, 'cookieSecure'>): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: cookieIsSecure(request, config) });
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { httpOnly: false, sameSite: 'lax', path: '/', secure: cookieIsSecure(request, config) });
}
