/**
 * Server-side sessions in SQLite (docs/server.md#sessions-and-accounts). The cookie holds a random
 * 32-byte token; the table holds only HMAC-SHA256(sessionSecret, token), so a leaked table or
 * backup cannot be replayed as a cookie. Expiry slides with use, written at most once an hour per
 * session, but never past `sessionMaxAgeDays` after sign-in (absolute lifetime). An author keeps at
 * most MAX_SESSIONS_PER_USER sessions: a new sign-in ends the least recently used beyond that.
 *
 * Resolved sessions are also kept in memory for a few seconds (SessionCache below): a signed-in
 * request then needs no SQL to know its user — only while this process is the database's only
 * server (the storage's exclusiveProcess capability, db/database.ts).
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type AccountSession, type PlanName, SIGNED_IN_HINT_COOKIE } from '@chronicler/schema';
import type { AppConfig } from '../config/config.ts';
import { isExclusiveProcess } from '../db/database.ts';
import type { DB } from '../db/tables.ts';
import { type AuthUser, SESSION_COOKIE } from '../http/caller.ts';
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
    sessionCacheOf(db).forgetUser(userId);
  }
  return token;
}

export async function destroySession(db: Kysely<DB>, config: SessionConfig, token: string): Promise<void> {
  const idHash = sessionIdHash(config.sessionSecret, token);
  sessionCacheOf(db).forget(token);
  await db.deleteFrom('sessions').where('idHash', '=', idHash).execute();
}

/** Sessions resolved from memory stay valid at most this long after they were read from the database. */
export const SESSION_CACHE_TTL_MS = 10_000;
/** Sessions kept in memory at most; beyond that the least recently resolved go first. */
export const SESSION_CACHE_SIZE = 10_000;

interface CachedSession {
  user: AuthUser;
  expiresAt: number;
  lastSeenAt: number;
  /** performance.now() when read from the database (real time: tests move the auth clock). */
  readAt: number;
}

/**
 * Resolved sessions of one database, by cookie token (a hit then costs no HMAC; the token is as
 * unguessable as its hash, and lives only in this process's memory, like the requests carrying
 * it). A session ended or a user changed through this process is dropped at once
 * (destroySession; forgetUserSessions, which the auth plugin runs as a commit effect). A change
 * made by another process — the operator command setting a plan, another server instance logging
 * out — is seen once the entry is SESSION_CACHE_TTL_MS old: that bounds how stale a user's name or
 * plan in `request.user` can be. Access and plan gates never read `request.user.plan`; they read
 * the rows.
 * Only hits are kept, so unknown tokens cannot fill the cache.
 */
class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  /** Bumped by every invalidation: a lookup that began before one must not store what it read. */
  generation = 0;

  /** `enabled` false: keeps nothing (another server process may end sessions or change users). */
  constructor(private readonly enabled: boolean) {}

  get(token: string, now: number): CachedSession | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    // Expiry and the hourly slide are decided by the database path, which writes them.
    if (performance.now() - entry.readAt >= SESSION_CACHE_TTL_MS || entry.expiresAt <= now || now - entry.lastSeenAt >= SESSION_TOUCH_INTERVAL_MS) {
      this.entries.delete(token);
      return undefined;
    }
    return entry;
  }

  set(token: string, entry: CachedSession, generation: number): void {
    if (!this.enabled || generation !== this.generation) return;
    this.entries.delete(token);
    if (this.entries.size >= SESSION_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, entry);
  }

  forget(token: string): void {
    this.generation += 1;
    this.entries.delete(token);
  }

  forgetUser(userId: string): void {
    this.generation += 1;
    for (const [token, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(token);
  }
}

/** One cache per database handle: tests run many apps (many databases) in one process. */
const sessionCaches = new WeakMap<Kysely<DB>, SessionCache>();

function sessionCacheOf(db: Kysely<DB>): SessionCache {
  let cache = sessionCaches.get(db);
  if (!cache) sessionCaches.set(db, (cache = new SessionCache(isExclusiveProcess(db))));
  return cache;
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
  const cached = sessionCacheOf(db).get(token, now);
  return cached ? { ...cached.user } : undefined;
}

/** The user a token belongs to, or null for unknown and expired tokens (an expired row is deleted). */
export async function resolveSession(db: Kysely<DB>, config: SessionConfig, token: string, now: number): Promise<ResolvedSession | null> {
  const cache = sessionCacheOf(db);
  const cached = cache.get(token, now);
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
  sessionCacheOf(db).forgetUser(userId);
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
