/**
 * The in-memory cache of resolved sessions (auth/session.ts): a signed-in request needs no SQL to
 * know its user, yet logout, a new login and a plan change through this process take effect on the
 * very next request, and the sliding expiry still slides. On PostgreSQL the instances tell one
 * another when sessions end (auth/session-cache.ts), so the cache is on there too.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_TOUCH_INTERVAL_MS } from '../../src/auth/session.ts';
import { SESSION_COOKIE } from '../../src/http/caller.ts';
import { setUserPlan } from '../../src/auth/users.ts';
import { type TestApp, TEST_PASSWORD, createTestApp, createTestAppPair, json, onPostgres, signUp } from '../support/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const me = (app: FastifyInstance, cookie: string) => app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });

describe('session cache', () => {
  it('resolves a known session from memory: its row can change under it until it is invalidated', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    expect((await me(t.app, author.cookie)).statusCode).toBe(200);
    // A change made behind the server's back (as another process would) is not seen at once…
    await t.app.deps.database.db.updateTable('users').set({ displayName: 'Renamed elsewhere' }).where('id', '=', author.user.id).execute();
    expect(json(await me(t.app, author.cookie)).displayName).toBe(author.user.displayName);
    // …but a plan change through this process is.
    await setUserPlan(t.app.deps, author.user.username, 'legendary');
    expect(json(await me(t.app, author.cookie))).toMatchObject({ plan: 'legendary', displayName: 'Renamed elsewhere' });
  });

  it('logout and a new login end the old session on the next request', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    expect((await me(t.app, author.cookie)).statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: author.cookie },
      payload: { username: author.user.username, password: TEST_PASSWORD },
    });
    const fresh = `${SESSION_COOKIE}=${login.cookies.find((c) => c.name === SESSION_COOKIE)!.value}`;
    expect((await me(t.app, author.cookie)).statusCode).toBe(401); // regenerated at login
    expect((await me(t.app, fresh)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: fresh } });
    expect((await me(t.app, fresh)).statusCode).toBe(401);
  });

  it('a session cached before it is logged out elsewhere in this process is not resurrected by a request in flight', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    // Resolve and log out concurrently, many times: afterwards the cookie is always refused.
    for (let i = 0; i < 5; i++) {
      const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: author.user.username, password: TEST_PASSWORD } });
      const cookie = `${SESSION_COOKIE}=${login.cookies.find((c) => c.name === SESSION_COOKIE)!.value}`;
      await Promise.all([me(t.app, cookie), t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } }), me(t.app, cookie)]);
      expect((await me(t.app, cookie)).statusCode).toBe(401);
    }
  });

  it('still slides the expiry once an hour and expires unused sessions', async () => {
    t = await createTestApp({ sessionTtlDays: 1 });
    const t0 = Date.UTC(2030, 0, 1);
    t.app.authClock.now = () => t0;
    const author = await signUp(t.app);
    expect((await me(t.app, author.cookie)).headers['set-cookie']).toBeUndefined();
    t.app.authClock.now = () => t0 + SESSION_TOUCH_INTERVAL_MS;
    const touched = await me(t.app, author.cookie);
    expect(touched.statusCode).toBe(200);
    expect(touched.cookies.find((c) => c.name === SESSION_COOKIE)).toBeDefined();
    const row = await t.app.deps.database.db.selectFrom('sessions').select('lastSeenAt').executeTakeFirstOrThrow();
    expect(row.lastSeenAt).toBe(new Date(t0 + SESSION_TOUCH_INTERVAL_MS).toISOString());
    // A day after that last use the session is gone, cached or not.
    t.app.authClock.now = () => t0 + SESSION_TOUCH_INTERVAL_MS + 24 * 60 * 60 * 1000;
    expect((await me(t.app, author.cookie)).statusCode).toBe(401);
  });
});

/** Polls until `check` holds: an announcement crosses the channel in milliseconds, not at once. */
async function eventually(check: () => Promise<boolean>, ms = 3_000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!onPostgres)('session cache on two instances of one PostgreSQL database', () => {
  it('keeps sessions in memory, and a logout or "sign out other sessions" on one instance ends them on the other', async () => {
    const pair = await createTestAppPair();
    try {
      const [a, b] = pair.apps;
      const author = await signUp(a);
      expect((await me(b, author.cookie)).statusCode).toBe(200);
      // Cached on b: a rename behind both servers' backs is not seen there at once.
      await b.deps.database.db.updateTable('users').set({ displayName: 'Renamed elsewhere' }).where('id', '=', author.user.id).execute();
      expect(json(await me(b, author.cookie)).displayName).toBe(author.user.displayName);

      // Logout on a: b refuses the cookie as soon as the announcement arrives.
      await a.inject({ method: 'POST', url: '/api/logout', headers: { cookie: author.cookie } });
      expect(await eventually(async () => (await me(b, author.cookie)).statusCode === 401)).toBe(true);

      // Two sessions used on b; "sign out other sessions" from a third on a ends both on b.
      const signIn = async () => {
        const login = await a.inject({ method: 'POST', url: '/api/login', payload: { username: author.user.username, password: TEST_PASSWORD } });
        return `${SESSION_COOKIE}=${login.cookies.find((c) => c.name === SESSION_COOKIE)!.value}`;
      };
      const [laptop, phone, desk] = [await signIn(), await signIn(), await signIn()];
      expect((await me(b, laptop)).statusCode).toBe(200);
      expect((await me(b, phone)).statusCode).toBe(200);
      expect((await a.inject({ method: 'POST', url: '/api/user/sessions/sign-out-others', headers: { cookie: desk } })).statusCode).toBe(200);
      expect(await eventually(async () => (await me(b, laptop)).statusCode === 401 && (await me(b, phone)).statusCode === 401)).toBe(true);
      expect((await me(b, desk)).statusCode).toBe(200);
    } finally {
      await pair.close();
    }
  });
});
