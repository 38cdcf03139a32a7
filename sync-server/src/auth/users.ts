/**
 * Accounts: creation, lookup and plan changes, shared by the HTTP routes and the operator command.
 * Usernames are unique ignoring case and Unicode width (`usernameKey` = NFKC lower-case).
 */
import type { Kysely } from 'kysely';
import { DEFAULT_PLAN, ERROR_CODES, GENERIC_MESSAGES, type PlanName, newId } from '@chronicler/schema';
import type { ScryptCost } from '../config.ts';
import type { DB, UserRow } from '../db/tables.ts';
import { HttpError } from '../http/errors.ts';
import { hashPassword } from './password.ts';
import { usernameSkeletonOf } from './account-rules.ts';
import { type AuthUser, forgetUserSessions } from './session.ts';

export function usernameKeyOf(username: string): string {
  return username.trim().normalize('NFKC').toLowerCase();
}

/** Null for "no email" (absent, null or empty). */
export function emailKeyOf(email: string | null | undefined): string | null {
  const trimmed = email?.trim();
  return trimmed ? trimmed.normalize('NFKC').toLowerCase() : null;
}

export function toAuthUser(row: Pick<UserRow, 'id' | 'username' | 'displayName' | 'email' | 'plan'>): AuthUser {
  return { id: row.id, username: row.username, displayName: row.displayName, email: row.email, plan: row.plan as PlanName };
}

export const usernameTaken = () => new HttpError(409, ERROR_CODES.usernameTaken, GENERIC_MESSAGES.usernameTaken);

export interface NewAccount {
  username: string;
  password: string;
  displayName: string;
  email?: string | null;
  plan?: PlanName;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // better-sqlite3 and node-postgres spellings of "unique constraint failed".
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * Inserts the account (hashing outside any transaction) and returns it. Throws the 409 when the
 * username is taken, also when two registrations race for it.
 */
export async function createUser(db: Kysely<DB>, account: NewAccount, cost: ScryptCost, now: number = Date.now()): Promise<AuthUser> {
  const username = account.username.trim();
  const usernameKey = usernameKeyOf(username);
  const usernameSkeleton = usernameSkeletonOf(username);
  // Taken as written, or by a look-alike (`аlice` with a Cyrillic а beside `alice`).
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('usernameKey', '=', usernameKey), eb('usernameSkeleton', '=', usernameSkeleton)]))
    .executeTakeFirst();
  if (existing) throw usernameTaken();
  const passwordHash = await hashPassword(account.password, cost);
  const email = account.email?.trim() || null;
  const stamp = new Date(now).toISOString();
  const row = {
    id: newId(now),
    username,
    usernameKey,
    usernameSkeleton,
    displayName: account.displayName.trim(),
    email,
    emailKey: emailKeyOf(email),
    plan: account.plan ?? DEFAULT_PLAN,
    passwordHash,
    createdAt: stamp,
    updatedAt: stamp,
  };
  try {
    await db.insertInto('users').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken();
    throw error;
  }
  return toAuthUser(row);
}

export function findUserByUsername(db: Kysely<DB>, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('usernameKey', '=', usernameKeyOf(username)).executeTakeFirst();
}

/** Stores a new password hash (hashing is the caller's, outside any transaction). */
export async function setUserPasswordHash(db: Kysely<DB>, userId: string, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ passwordHash, updatedAt: new Date(now).toISOString() }).where('id', '=', userId).execute();
}

/** Sets the plan; returns the updated user, or null when there is no such username. */
export async function setUserPlan(db: Kysely<DB>, username: string, plan: PlanName, now: number = Date.now()): Promise<AuthUser | null> {
  const result = await db
    .updateTable('users')
    .set({ plan, updatedAt: new Date(now).toISOString() })
    .where('usernameKey', '=', usernameKeyOf(username))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  const row = await findUserByUsername(db, username);
  if (!row) return null;
  // Sessions resolved in memory by this process show the new plan from the next request on; a
  // server in another process (this is also the operator command's path) sees it within
  // SESSION_CACHE_TTL_MS.
  forgetUserSessions(db, row.id);
  return toAuthUser(row);
}

export async function listUsers(db: Kysely<DB>): Promise<Array<AuthUser & { createdAt: string }>> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'displayName', 'email', 'plan', 'createdAt'])
    .orderBy('createdAt')
    .orderBy('usernameKey')
    .execute();
  return rows.map((row) => ({ ...toAuthUser(row), createdAt: row.createdAt }));
}

/**
 * Accounts made before the skeleton column (migration 0003) get theirs; a no-op once every account
 * has one. Run at start-up, after the migrations.
 */
export async function backfillUsernameSkeletons(db: Kysely<DB>): Promise<void> {
  const users = await db.selectFrom('users').select(['id', 'username']).where('usernameSkeleton', 'is', null).execute();
  for (const user of users) {
    await db.updateTable('users').set({ usernameSkeleton: usernameSkeletonOf(user.username) }).where('id', '=', user.id).execute();
  }
}
