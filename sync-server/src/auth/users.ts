/**
 * Accounts: creation, lookup and plan changes, shared by the HTTP routes and the operator command.
 * Usernames are unique ignoring case and Unicode width (`usernameKey` = NFKC lower-case).
 */
import type { Kysely } from 'kysely';
import { DEFAULT_PLAN, ERROR_CODES, GENERIC_MESSAGES, type PlanName, newId } from '@chronicler/schema';
import type { ScryptCost } from '../config/config.ts';
import type { OpenedDatabase } from '../db/database.ts';
import type { DB, UserRow } from '../db/tables.ts';
import { markUserChanged } from '../entities/user-rows.ts';
import { HttpError } from '../http/errors.ts';
import type { ChangeHub } from '../sync/hub.ts';
import { runServerWrite } from '../sync/mutation.ts';
import { hashPassword } from './password.ts';
import { usernameSkeletonOf } from './account-rules.ts';
import type { AuthUser } from '../http/caller.ts';

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
export async function createUser(
  deps: { database: OpenedDatabase; hub: ChangeHub | null },
  account: NewAccount,
  cost: ScryptCost,
  now: number = Date.now(),
): Promise<AuthUser> {
  const { db } = deps.database;
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
  const id = newId(now);
  const row = {
    id,
    userId: id,
    rev: 0,
    deletedAt: null,
    timeZone: null,
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
    // The record syncs as the user-scoped kind `users`: written like any synced row at a seq, so
    // the author's first pull (since 0) brings it.
    await runServerWrite(deps, async (ctx) => {
      await ctx.trx.insertInto('users').values({ ...row, rev: ctx.seq }).execute();
      ctx.touchUser(id, 'record');
    });
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

/**
 * Sets the plan as a synced write of the author's record (a new seq): the author's open apps follow
 * it live. In this process their streams are poked (`hub`) and their cached sessions forgotten at
 * once; a server in another process (the operator command's path, `hub` null) notices the commit
 * by its foreign-commit watch (sync/foreign-commits.ts) within a few seconds. Returns the updated
 * user, or null when there is no such username.
 */
export async function setUserPlan(
  deps: { database: OpenedDatabase; hub: ChangeHub | null },
  username: string,
  plan: PlanName,
): Promise<AuthUser | null> {
  const found = await findUserByUsername(deps.database.db, username);
  if (!found) return null;
  const record = await runServerWrite(deps, (ctx) => markUserChanged(ctx, found.id, { plan }));
  return toAuthUser(record);
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
