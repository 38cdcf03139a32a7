/**
 * Test harness: a real app over an in-memory SQLite database (or a temp file), driven through
 * `app.inject`, and a way to get a signed-in author of any plan.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { PlanName } from '@chronicler/schema';
import { buildApp } from '../../src/app.ts';
import type { AuthUser } from '../../src/http/caller.ts';
import { type AppConfig, testConfig, testDatabaseUrl } from '../../src/config/config.ts';

/** The suite runs on PostgreSQL (vitest.config.ts: the `postgres` project); SQLite-only tests skip there. */
export const onPostgres = testDatabaseUrl() !== null;

export interface TestApp {
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const app = await buildApp(testConfig(overrides));
  await app.ready();
  return { app, close: () => app.close() };
}

/**
 * Two app instances on ONE database, as behind a load balancer (docs/server.md#postgresql): on
 * PostgreSQL the second opens the first's throwaway database. On SQLite the "pair" is one app
 * twice: two better-sqlite3 connections in one process would wait out each other's write lock
 * with the event loop blocked (several processes on one file: test/db/shared-processes.test.ts).
 */
export async function createTestAppPair(overrides: Partial<AppConfig> = {}): Promise<{ apps: [FastifyInstance, FastifyInstance]; close(): Promise<void> }> {
  const first = await createTestApp(overrides);
  if (!onPostgres) return { apps: [first.app, first.app], close: () => first.close() };
  const second = await createTestApp({ ...overrides, databaseUrl: first.app.deps.database.url!, throwawayDatabase: false });
  return {
    apps: [first.app, second.app],
    async close() {
      await second.close();
      await first.close();
    },
  };
}

export function json<T = any>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}

let counter = 0;
/** A username no other test in this process uses. */
export function uniqueUsername(prefix = 'author'): string {
  counter += 1;
  return `${prefix}${process.pid}_${counter}`;
}

export interface SignedIn {
  user: AuthUser;
  /** `chronicler_session=<token>`, ready for a `cookie` header. */
  cookie: string;
  /** cookie + `content-type: application/json`, to spread into `inject({ headers })`. */
  headers: Record<string, string>;
}

export const TEST_PASSWORD = 'correct horse battery';

/** Registers through POST /api/register; `plan` is then set directly in the database. */
export async function signUp(
  app: FastifyInstance,
  options: { username?: string; password?: string; displayName?: string; email?: string; plan?: PlanName } = {},
): Promise<SignedIn> {
  const username = options.username ?? uniqueUsername();
  const res = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: {
      username,
      password: options.password ?? TEST_PASSWORD,
      displayName: options.displayName ?? `Author ${username}`,
      ...(options.email !== undefined ? { email: options.email } : {}),
    },
  });
  if (res.statusCode !== 201) throw new Error(`signUp failed: ${res.statusCode} ${res.body}`);
  const session = res.cookies.find((c) => c.name === 'chronicler_session');
  if (!session) throw new Error('signUp: no session cookie in the answer');
  let user = json<AuthUser>(res);
  if (options.plan && options.plan !== user.plan) {
    await app.deps.database.db.updateTable('users').set({ plan: options.plan }).where('id', '=', user.id).execute();
    user = { ...user, plan: options.plan };
  }
  const cookie = `chronicler_session=${session.value}`;
  return { user, cookie, headers: { cookie, 'content-type': 'application/json' } };
}
