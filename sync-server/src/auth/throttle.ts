/**
 * Login and registration throttling, counted in the `login_throttle` table so the counts survive
 * restarts and hold across several server instances:
 * - `ip:<addr>`: attempts per IP in a fixed one-minute window;
 * - `user:<usernameKey>`: failed logins in a 15-minute window; reaching the limit locks the
 *   username for 15 minutes (counted for unknown usernames too, so a lock reveals nothing).
 * Each count is one atomic upsert, so concurrent requests cannot both slip under the limit.
 */
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.ts';
import { countThrottleHit } from '../db/dialect.ts';
import type { DB } from '../db/tables.ts';

export const IP_WINDOW_MS = 60 * 1000;
export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_LOCK_MS = 15 * 60 * 1000;

/** Milliseconds until the caller may try again; 0 when allowed. */
export type RetryAfterMs = number;

const ipKey = (ip: string) => `ip:${ip}`;
const accountKey = (usernameKey: string) => `user:${usernameKey}`;

/** Counts an attempt from `ip`; answers how long to wait when this one is over the limit. */
export async function takeIpAttempt(db: Kysely<DB>, config: Pick<AppConfig, 'rateLimit'>, ip: string, now: number): Promise<RetryAfterMs> {
  const { failures, windowStartedAt } = await countThrottleHit(db, ipKey(ip), now, IP_WINDOW_MS);
  return failures > config.rateLimit.perIpPerMinute ? windowStartedAt + IP_WINDOW_MS - now : 0;
}

/** How long the username stays locked; 0 when it is not. */
export async function accountLockedFor(db: Kysely<DB>, usernameKey: string, now: number): Promise<RetryAfterMs> {
  const row = await db.selectFrom('loginThrottle').select('lockedUntil').where('key', '=', accountKey(usernameKey)).executeTakeFirst();
  const lockedUntil = row ? Number(row.lockedUntil) : 0;
  return lockedUntil > now ? lockedUntil - now : 0;
}

/** Counts a failed login; the failure that reaches the limit starts the lock. */
export async function recordLoginFailure(db: Kysely<DB>, config: Pick<AppConfig, 'rateLimit'>, usernameKey: string, now: number): Promise<void> {
  const { failures } = await countThrottleHit(db, accountKey(usernameKey), now, ACCOUNT_WINDOW_MS);
  if (failures >= config.rateLimit.failuresPerAccount) {
    // Restart the count too, so the first failure after the lock does not re-lock at once.
    await db
      .updateTable('loginThrottle')
      .set({ lockedUntil: now + ACCOUNT_LOCK_MS, failures: 0, windowStartedAt: now })
      .where('key', '=', accountKey(usernameKey))
      .execute();
  }
}

/** A successful login forgives earlier failures. */
export async function clearLoginFailures(db: Kysely<DB>, usernameKey: string): Promise<void> {
  await db.deleteFrom('loginThrottle').where('key', '=', accountKey(usernameKey)).execute();
}

/** Drops rows whose window and lock are both over. */
export async function pruneThrottle(db: Kysely<DB>, now: number): Promise<void> {
  await db
    .deleteFrom('loginThrottle')
    .where('windowStartedAt', '<=', now - ACCOUNT_WINDOW_MS)
    .where('lockedUntil', '<=', now)
    .execute();
}
