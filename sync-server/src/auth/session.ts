/**
 * Server-side sessions in SQLite (DESIGN.md §4). The cookie holds a random 32-byte token; the
 * table holds only HMAC-SHA256(sessionSecret, token), so a leaked table or backup cannot be
 * replayed as a cookie. Expiry slides with use, written at most once an hour per session.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { PlanName } from '@chronicler/schema';
import type { AppConfig } from '../config.ts';
import type { DB } from '../db/tables.ts';
import { unauthenticated } from '../http/errors.ts';

export interface AuthUser {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  plan: PlanName;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, resolved from the session cookie by the auth plugin; null when anonymous. */
    user: AuthUser | null;
  }
}

export const SESSION_COOKIE = 'chronicler_session';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding expiry is refreshed at most this often, so reads do not turn into writes. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

/** The signed-in user, or the 401 every protected route answers. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

export function sessionIdHash(secret: string, token: string): string {
  return crypto.createHmac('sha256', secret).update(token).digest('base64url');
}

type SessionConfig = Pick<AppConfig, 'sessionSecret' | 'sessionTtlDays'>;

/** Stores a new session and returns its cookie token. */
export async function createSession(db: Kysely<DB>, config: SessionConfig, userId: string, now: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      idHash: sessionIdHash(config.sessionSecret, token),
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + config.sessionTtlDays * DAY_MS).toISOString(),
      lastSeenAt: new Date(now).toISOString(),
    })
    .execute();
  return token;
}

export async function destroySession(db: Kysely<DB>, config: SessionConfig, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('idHash', '=', sessionIdHash(config.sessionSecret, token)).execute();
}

export interface ResolvedSession {
  user: AuthUser;
  /** The expiry slid forward on this request: the cookie's Max-Age should follow. */
  extended: boolean;
}

/** The user a token belongs to, or null for unknown and expired tokens (an expired row is deleted). */
export async function resolveSession(db: Kysely<DB>, config: SessionConfig, token: string, now: number): Promise<ResolvedSession | null> {
  const idHash = sessionIdHash(config.sessionSecret, token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select([
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
  if (Date.parse(row.expiresAt) <= now) {
    await db.deleteFrom('sessions').where('idHash', '=', idHash).execute();
    return null;
  }
  const extended = now - Date.parse(row.lastSeenAt) >= SESSION_TOUCH_INTERVAL_MS;
  if (extended) {
    await db
      .updateTable('sessions')
      .set({ lastSeenAt: new Date(now).toISOString(), expiresAt: new Date(now + config.sessionTtlDays * DAY_MS).toISOString() })
      .where('idHash', '=', idHash)
      .execute();
  }
  const user = { id: row.id, username: row.username, displayName: row.displayName, email: row.email, plan: row.plan as PlanName };
  return { user, extended };
}

export async function pruneExpiredSessions(db: Kysely<DB>, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expiresAt', '<=', new Date(now).toISOString()).execute();
}

function cookieIsSecure(request: FastifyRequest, config: Pick<AppConfig, 'cookieSecure'>): boolean {
  return config.cookieSecure === 'auto' ? request.protocol === 'https' : config.cookieSecure;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AppConfig, 'cookieSecure' | 'sessionTtlDays'>,
  token: string,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: cookieIsSecure(request, config),
    maxAge: config.sessionTtlDays * 24 * 60 * 60,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Pick<AppConfig, 'cookieSecure'>): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: cookieIsSecure(request, config) });
}

export function sessionTokenOf(request: FastifyRequest): string | null {
  const token = request.cookies[SESSION_COOKIE];
  // Our tokens are 43 base64url characters; anything else cannot be a session.
  return token && token.length <= 128 ? token : null;
}
