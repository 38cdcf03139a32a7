/**
 * Sessions have an absolute lifetime and a per-author limit; the author can list
 * them and sign out the others or everywhere; changing the password (current one required) signs
 * out everywhere else.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_USER, sessionIdHash } from '../../src/auth/session.ts';
import { COMMON_PASSWORD_MESSAGE } from '../../src/auth/account-rules.ts';
import { CURRENT_PASSWORD_WRONG } from '../../src/auth/account-routes.ts';
import { TEST_PASSWORD, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const setNow = (app: FastifyInstance, now: number) => {
  app.authClock.now = () => now;
};
const me = (cookie: string) => t!.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });

async function signInAgain(username: string, userAgent = 'Test browser', password = TEST_PASSWORD): Promise<string> {
  const res = await t!.app.inject({ method: 'POST', url: '/api/login', headers: { 'user-agent': userAgent }, payload: { username, password } });
  expect(res.statusCode).toBe(200);
  return `chronicler_session=${res.cookies.find((c) => c.name === 'chronicler_session')!.value}`;
}

describe('session lifetime and limits', () => {
  it('a session used every day still ends at the absolute lifetime (a 400-day-old one does not work)', async () => {
    t = await createTestApp({ sessionTtlDays: 30, sessionMaxAgeDays: 90 });
    const t0 = Date.UTC(2030, 0, 1);
    setNow(t.app, t0);
    const author = await signUp(t.app);
    for (let day = 1; day < 90; day += 5) {
      setNow(t.app, t0 + day * DAY);
      expect((await me(author.cookie)).statusCode).toBe(200);
    }
    setNow(t.app, t0 + 90 * DAY);
    expect((await me(author.cookie)).statusCode).toBe(401);
    const rows = await t.app.deps.database.db.selectFrom('sessions').select('idHash').execute();
    expect(rows).toEqual([]);
  });

  it('a row made before the absolute lifetime existed (400 days old, expiry still ahead) is refused', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const now = Date.now();
    const token = author.cookie.split('=')[1]!;
    await t.app.deps.database.db
      .updateTable('sessions')
      .set({ createdAt: new Date(now - 400 * DAY).toISOString(), lastSeenAt: new Date(now - 2 * 60 * 60 * 1000).toISOString(), expiresAt: new Date(now + 20 * DAY).toISOString() })
      .where('idHash', '=', sessionIdHash(t.app.deps.config.sessionSecret, token))
      .execute();
    expect((await me(author.cookie)).statusCode).toBe(401);
  });

  it(`keeps at most ${MAX_SESSIONS_PER_USER} sessions per author: the least recently used end`, async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const cookies: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_USER + 2; i++) cookies.push(await signInAgain(author.user.username));
    const count = await t.app.deps.database.db.selectFrom('sessions').select('idHash').where('userId', '=', author.user.id).execute();
    expect(count).toHaveLength(MAX_SESSIONS_PER_USER);
    expect((await me(author.cookie)).statusCode).toBe(401);
    expect((await me(cookies.at(-1)!)).statusCode).toBe(200);
  });
});

describe("the author's sessions", () => {
  it('lists them (this one marked), ends one by id, and signs out the others', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const phone = await signInAgain(author.user.username, 'Phone browser');
    const tablet = await signInAgain(author.user.username, 'Tablet browser');
    const list = json(await t.app.inject({ method: 'GET', url: '/api/user/sessions', headers: { cookie: phone } })).sessions as Array<{ id: string; current: boolean; userAgent: string | null }>;
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current).map((s) => s.userAgent)).toEqual(['Phone browser']);
    expect(JSON.stringify(list)).not.toContain(phone.split('=')[1]);

    const tabletId = list.find((s) => s.userAgent === 'Tablet browser')!.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/user/sessions/${tabletId}`, headers: { cookie: phone } })).statusCode).toBe(200);
    expect((await me(tablet)).statusCode).toBe(401);

    const others = await t.app.inject({ method: 'POST', url: '/api/user/sessions/sign-out-others', headers: { cookie: phone } });
    expect(json(others)).toEqual({ ok: true, ended: 1 });
    expect((await me(author.cookie)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(200);
  });

  it('signs out everywhere', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const phone = await signInAgain(author.user.username);
    const res = await t.app.inject({ method: 'POST', url: '/api/logout/everywhere', headers: { cookie: phone } });
    expect(json(res)).toEqual({ ok: true, ended: 2 });
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(author.cookie)).statusCode).toBe(401);
  });
});

describe('POST /api/user/password', () => {
  const change = (cookie: string, body: object) => t!.app.inject({ method: 'POST', url: '/api/user/password', headers: { cookie, 'content-type': 'application/json' }, payload: body });

  it('asks the current password, applies the password rules, and signs out everywhere else', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const phone = await signInAgain(author.user.username);

    const wrong = await change(author.cookie, { currentPassword: 'not it at all', newPassword: 'a new long passphrase' });
    expect(wrong.statusCode).toBe(422);
    expect(json(wrong).fields).toEqual({ currentPassword: CURRENT_PASSWORD_WRONG });
    const short = await change(author.cookie, { currentPassword: TEST_PASSWORD, newPassword: '12345' });
    expect(json(short).fields.newPassword).toBe('Password must be at least 6 characters');
    const common = await change(author.cookie, { currentPassword: TEST_PASSWORD, newPassword: 'password1' });
    expect(json(common).fields.newPassword).toBe(COMMON_PASSWORD_MESSAGE);
    expect((await me(phone)).statusCode).toBe(200);

    const ok = await change(author.cookie, { currentPassword: TEST_PASSWORD, newPassword: 'a new long passphrase' });
    expect(ok.statusCode).toBe(200);
    const fresh = `chronicler_session=${ok.cookies.find((c) => c.name === 'chronicler_session')!.value}`;
    expect(fresh).not.toBe(author.cookie);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(author.cookie)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(200);
    const oldLogin = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: author.user.username, password: TEST_PASSWORD } });
    expect(oldLogin.statusCode).toBe(401);
    await signInAgain(author.user.username, 'x', 'a new long passphrase');
  });
});
