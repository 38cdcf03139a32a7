/**
 * Login and registration throttling, counted in the `login_throttle` table so the counts survive
 * restarts and hold across several server instances (docs/server.md#sessions-and-accounts; OWASP
 * Authentication Cheat Sheet: slow attackers down without letting them lock the owner out).
 * - `ip:<addr>`: attempts per address in a fixed one-minute window.
 * - `user:<usernameKey>` and `user:<usernameKey>:known`: login attempts on an account since its
 *   last success (15-minute window), counted BEFORE the password is hashed, in one transaction,
 *   so parallel attempts cannot slip past. From the limit on, each further attempt must wait
 *   after the previous one, the wait doubling from 30 s up to 15 minutes (slow-down, not a lock).
 *   Callers the account knows — a device that signed in to it before (device cookie) or an
 *   address it signed in from lately — are counted in the `:known` bucket, so strangers hammering
 *   the account slow down only strangers. Unknown usernames are counted the same way.
 * - `known:<usernameKey>:<addr>`: an address the account signed in from (until `lockedUntil`).
 */
import crypto from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { ERROR_CODES, GENERIC_MESSAGES } from '@chronicler/schema';
import type { AppConfig } from '../config/config.ts';
import { countThrottleHit } from '../db/dialect.ts';
import type { DB } from '../db/tables.ts';

export const IP_WINDOW_MS = 60 * 1000;
export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;
/** The first wait once an account's attempts reach the limit; it doubles with each attempt after. */
export const ACCOUNT_FIRST_DELAY_MS = 30 * 1000;
export const ACCOUNT_MAX_DELAY_MS = 15 * 60 * 1000;
/** An address stays known to an account this long after its last sign-in from there. */
export const KNOWN_ADDRESS_MS = 90 * 24 * 60 * 60 * 1000;

/** Milliseconds until the caller may try again; 0 when allowed. */
export type RetryAfterMs = number;

const ipKey = (ip: string) => `ip:${ip}`;
const accountKey = (usernameKey: string, known: boolean) => `user:${usernameKey}${known ? ':known' : ''}`;
const knownAddressKey = (usernameKey: string, ip: string) => `known:${usernameKey}:${ip}`;

/** The 429 with Retry-After in whole seconds. */
export function sendRateLimited(reply: FastifyReply, retryAfterMs: number): FastifyReply {
  return reply
    .status(429)
    .header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))))
    .send({ message: GENERIC_MESSAGES.rateLimited, code: ERROR_CODES.rateLimited });
}

/** Counts an attempt from `ip`; answers how long to wait when this one is over the limit. */
export async function takeIpAttempt(db: Kysely<DB>, config: Pick<AppConfig, 'rateLimit'>, ip: string, now: number): Promise<RetryAfterMs> {
  const { failures, windowStartedAt } = await countThrottleHit(db, ipKey(ip), now, IP_WINDOW_MS);
  return failures > config.rateLimit.perIpPerMinute ? windowStartedAt + IP_WINDOW_MS - now : 0;
}

/** The wait an account's n-th attempt (n ≥ limit) imposes on the next one. */
export function accountDelayMs(attempts: number, limit: number): number {
  const doublings = Math.min(attempts - limit, 20);
  return Math.min(ACCOUNT_FIRST_DELAY_MS * 2 ** doublings, ACCOUNT_MAX_DELAY_MS);
}

/**
 * Counts a login attempt on the account before its password is checked: 0 when it may go ahead,
 * else how long to wait (the attempt is then not counted). One transaction: SQLite runs it alone.
 */
export async function takeAccountAttempt(
  db: Kysely<DB>,
  config: Pick<AppConfig, 'rateLimit'>,
  usernameKey: string,
  known: boolean,
  now: number,
): Promise<RetryAfterMs> {
  const key = accountKey(usernameKey, known);
  return db.transaction().setAccessMode('read write').execute(async (trx) => {
    const row = await trx.selectFrom('loginThrottle').select(['failures', 'windowStartedAt', 'lockedUntil']).where('key', '=', key).executeTakeFirst();
    const lockedUntil = row ? Number(row.lockedUntil) : 0;
    if (lockedUntil > now) return lockedUntil - now;
    const fresh = !row || Number(row.windowStartedAt) <= now - ACCOUNT_WINDOW_MS;
    const attempts = fresh ? 1 : Number(row.failures) + 1;
    const limit = config.rateLimit.failuresPerAccount;
    const values = {
      failures: attempts,
      windowStartedAt: fresh ? now : Number(row.windowStartedAt),
      lockedUntil: attempts >= limit ? now + accountDelayMs(attempts, limit) : 0,
    };
    await trx
      .insertInto('loginThrottle')
      .values({ key, ...values })
      .onConflict((oc) => oc.column('key').doUpdateSet(values))
      .execute();
    return 0;
  });
}

/**
 * A successful sign-in: the bucket it was counted in starts over, and the address becomes known
 * to the account.
 */
export async function recordSignIn(db: Kysely<DB>, usernameKey: string, ip: string, known: boolean, now: number): Promise<void> {
  await db.deleteFrom('loginThrottle').where('key', '=', accountKey(usernameKey, known)).execute();
  const values = { failures: 0, windowStartedAt: now, lockedUntil: now + KNOWN_ADDRESS_MS };
  await db
    .insertInto('loginThrottle')
    .values({ key: knownAddressKey(usernameKey, ip), ...values })
    .onConflict((oc) => oc.column('key').doUpdateSet(values))
    .execute();
}

export async function isKnownAddress(db: Kysely<DB>, usernameKey: string, ip: string, now: number): Promise<boolean> {
  const row = await db.selectFrom('loginThrottle').select('lockedUntil').where('key', '=', knownAddressKey(usernameKey, ip)).executeTakeFirst();
  return row !== undefined && Number(row.lockedUntil) > now;
}

// A device that signed in to an account carries `nonce.mac` (HMAC of the account and nonce under
// the session secret): nothing to store, and it proves only "this browser signed in here before".
export const DEVICE_COOKIE = 'chronicler_device';
export const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

function deviceMac(secret: string, usernameKey: string, nonce: string): string {
  return crypto.createHmac('sha256', secret).update(`device\0${usernameKey}\0${nonce}`).digest('base64url');
}

export function deviceToken(secret: string, usernameKey: string): string {
  const nonce = crypto.randomBytes(16).toString('base64url');
  return `${nonce}.${deviceMac(secret, usernameKey, nonce)}`;
}

export function isKnownDevice(secret: string, usernameKey: string, token: string | undefined): boolean {
  if (!token || token.length > 128) return false;
  const [nonce, mac, ...rest] = token.split('.');
  if (!nonce || !mac || rest.length > 0) return false;
  const expected = Buffer.from(deviceMac(secret, usernameKey, nonce));
  const given = Buffer.from(mac);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** Drops rows whose window and wait (or known-address term) are both over. */
export async function pruneThrottle(db: Kysely<DB>, now: number): Promise<void> {
  await db
    .deleteFrom('loginThrottle')
    .where('windowStartedAt', '<=', now - ACCOUNT_WINDOW_MS)
    .where('lockedUntil', '<=', now)
    .execute();
}
