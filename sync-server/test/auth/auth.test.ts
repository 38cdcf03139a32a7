import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { parsePasswordHash, verifyPassword } from '../../src/auth/password.ts';
import { SESSION_TOUCH_INTERVAL_MS, sessionIdHash } from '../../src/auth/session.ts';
import { SESSION_COOKIE } from '../../src/http/caller.ts';
import { OWASP_SCRYPT, type AppConfig, testConfig } from '../../src/config/config.ts';
import { TEST_PASSWORD, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
const open: TestApp[] = [];
const tempDirs: string[] = [];

async function start(overrides: Partial<AppConfig> = {}): Promise<FastifyInstance> {
  const t = await createTestApp(overrides);
  open.push(t);
  return t.app;
}

function tempDbFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-auth-'));
  tempDirs.push(dir);
  return path.join(dir, 'db.sqlite');
}

afterEach(async () => {
  while (open.length) await open.pop()!.close();
  while (tempDirs.length) fs.rmSync(tempDirs.pop()!, { recursive: true, force: true });
});

function sessionCookieOf(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE);
}

const post = (app: FastifyInstance, url: string, payload: unknown, extra: { cookie?: string; remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { ...(extra.cookie ? { cookie: extra.cookie } : {}), ...extra.headers },
    ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
  });

const me = (app: FastifyInstance, cookie?: string) => app.inject({ method: 'GET', url: '/api/user', headers: cookie ? { cookie } : {} });

/** Sets the auth clock to `t` (ms since epoch). */
function setNow(app: FastifyInstance, t: number): void {
  app.authClock.now = () => t;
}

describe('register', () => {
  const valid = { username: 'mira', password: 'sesame-42x', displayName: 'Mira Vale' };

  it('creates an apprentice, answers 201 with the user and signs them in', async () => {
    const app = await start();
    const res = await post(app, '/api/register', { ...valid, confirmPassword: 'sesame-42x', email: 'Mira@Example.org' });
    expect(res.statusCode).toBe(201);
    const user = json(res);
    expect(user).toEqual({ id: expect.any(String), username: 'mira', displayName: 'Mira Vale', email: 'Mira@Example.org', plan: 'apprentice' });
    const cookie = sessionCookieOf(res)!;
    expect((await me(app, `${SESSION_COOKIE}=${cookie.value}`)).json()).toEqual(user);
    const row = await app.deps.database.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.usernameKey).toBe('mira');
    expect(row.emailKey).toBe('mira@example.org');
  });

  it('answers on /api/auth/register too, and treats an empty email as none', async () => {
    const app = await start();
    const res = await post(app, '/api/auth/register', { ...valid, email: '' });
    expect(res.statusCode).toBe(201);
    expect(json(res).email).toBeNull();
  });

  it.each([
    [{ password: 'sesame-42x', displayName: 'Mira' }, 'username', 'Username is required'],
    [{ ...valid, username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    [{ username: 'mira', displayName: 'Mira' }, 'password', 'Password is required'],
    [{ ...valid, password: '12345' }, 'password', 'Password must be at least 6 characters'],
    [{ username: 'mira', password: 'sesame-42x' }, 'displayName', 'Display name is required'],
    [{ ...valid, displayName: 'M' }, 'displayName', 'Display name must be at least 2 characters'],
    [{ ...valid, confirmPassword: 'secret2' }, 'confirmPassword', 'Passwords do not match'],
    [{ ...valid, email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
  ])('rejects %j with "%s: %s"', async (body, field, message) => {
    const app = await start();
    const res = await post(app, '/api/register', body);
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({ message, code: 'VALIDATION_FAILED', fields: { [field]: message } });
  });

  it('rejects unknown fields and creates nothing', async () => {
    const app = await start();
    const res = await post(app, '/api/register', { ...valid, plan: 'legendary' });
    expect(res.statusCode).toBe(422);
    expect(json(res).code).toBe('VALIDATION_FAILED');
    expect(await app.deps.database.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });

  it('keeps usernames unique ignoring case and Unicode width', async () => {
    const app = await start();
    expect((await post(app, '/api/register', { ...valid, username: 'Alice' })).statusCode).toBe(201);
    for (const username of ['alice', 'ALICE', ' aLiCe ', 'Ａｌｉｃｅ']) {
      const res = await post(app, '/api/register', { ...valid, username });
      expect(res.statusCode, username).toBe(409);
      expect(json(res)).toEqual({ message: 'Username already exists', code: 'USERNAME_TAKEN' });
    }
  });

  it('stores scrypt hashes in the self-describing format, never the password', async () => {
    const app = await start();
    const { user } = await signUp(app);
    const row = await app.deps.database.db.selectFrom('users').select('passwordHash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(row.passwordHash).not.toContain(TEST_PASSWORD);
  });

  it('hashes at the OWASP cost (N=2^17, r=8, p=1) with the production setting, and verifies it', async () => {
    const app = await start({ scrypt: OWASP_SCRYPT });
    const { user } = await signUp(app, { username: 'owasp_user' });
    const row = await app.deps.database.db.selectFrom('users').select('passwordHash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.passwordHash.startsWith('scrypt$131072$8$1$')).toBe(true);
    expect(parsePasswordHash(row.passwordHash)).toMatchObject({ cost: OWASP_SCRYPT });
    expect((await post(app, '/api/login', { username: 'owasp_user', password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});

describe('login', () => {
  it.each([
    [{ password: 'sesame-42x' }, 'Username is required'],
    [{ username: '', password: 'sesame-42x' }, 'Username is required'],
    [{ username: 'mira' }, 'Password is required'],
    [{ username: 'mira', password: '' }, 'Password is required'],
  ])('rejects %j with "%s"', async (body, message) => {
    const app = await start();
    const res = await post(app, '/api/login', body);
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({ message, code: 'VALIDATION_FAILED' });
  });

  it('signs in on both URLs, ignoring the username case', async () => {
    const app = await start();
    const { user } = await signUp(app, { username: 'Quill' });
    for (const url of ['/api/login', '/api/auth/login']) {
      const res = await post(app, url, { username: 'qUILL', password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual(user);
      expect(sessionCookieOf(res)?.value).toBeTruthy();
    }
  });

  it('gives an unknown user and a wrong password the same answer', async () => {
    const app = await start();
    await signUp(app, { username: 'known' });
    const wrong = await post(app, '/api/login', { username: 'known', password: 'not-the-password' });
    const unknown = await post(app, '/api/login', { username: 'nobody', password: 'not-the-password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(json(res)).toEqual({ message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
      expect(sessionCookieOf(res)).toBeUndefined();
    }
    expect(Object.keys(wrong.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
  });

  it('regenerates the session: a fresh token, and the one presented with the login stops working', async () => {
    const app = await start();
    const { cookie: before, user } = await signUp(app, { username: 'regen' });
    const res = await post(app, '/api/login', { username: 'regen', password: TEST_PASSWORD }, { cookie: before });
    const after = `${SESSION_COOKIE}=${sessionCookieOf(res)!.value}`;
    expect(after).not.toBe(before);
    expect((await me(app, before)).statusCode).toBe(401);
    expect(json(await me(app, after))).toEqual(user);
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, with a lifetime, and not Secure over plain HTTP', async () => {
    const app = await start();
    const res = await post(app, '/api/register', { username: 'cookie1', password: 'sesame-42x', displayName: 'Cookie' });
    const raw = String(res.headers['set-cookie']);
    expect(raw).toMatch(/^chronicler_session=[A-Za-z0-9_-]{43};/);
    expect(raw).toContain('HttpOnly');
    expect(raw).toContain('SameSite=Lax');
    expect(raw).toContain('Path=/');
    expect(raw).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    expect(raw).not.toContain('Secure');
  });

  it('is Secure when the request came over TLS through a trusted proxy', async () => {
    const app = await start({ trustProxy: ['127.0.0.1'] });
    const res = await post(app, '/api/register', { username: 'cookie2', password: 'sesame-42x', displayName: 'Cookie' }, { headers: { 'x-forwarded-proto': 'https' } });
    expect(sessionCookieOf(res)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  });

  it('ignores X-Forwarded-Proto from an untrusted peer, and is always Secure when configured so', async () => {
    const untrusted = await start({ trustProxy: false });
    const res1 = await post(untrusted, '/api/register', { username: 'cookie3', password: 'sesame-42x', displayName: 'Cookie' }, { headers: { 'x-forwarded-proto': 'https' } });
    expect(sessionCookieOf(res1)?.secure).toBeFalsy();
    const forced = await start({ cookieSecure: true });
    const res2 = await post(forced, '/api/register', { username: 'cookie4', password: 'sesame-42x', displayName: 'Cookie' });
    expect(sessionCookieOf(res2)?.secure).toBe(true);
  });

  it('is stored only as an HMAC of the token', async () => {
    const app = await start();
    const { cookie, user } = await signUp(app);
    const token = cookie.split('=')[1]!;
    const rows = await app.deps.database.db.selectFrom('sessions').selectAll().where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.idHash).toBe(sessionIdHash(app.deps.config.sessionSecret, token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('an unknown or malformed cookie is simply anonymous', async () => {
    const app = await start();
    for (const cookie of [`${SESSION_COOKIE}=nope`, `${SESSION_COOKIE}=${'x'.repeat(500)}`, `${SESSION_COOKIE}=`]) {
      const res = await me(app, cookie);
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('current user and logout', () => {
  it('GET /api/user answers 401 when signed out', async () => {
    const app = await start();
    const res = await me(app);
    expect(res.statusCode).toBe(401);
    expect(json(res)).toEqual({ message: 'Please sign in to continue', code: 'UNAUTHENTICATED' });
  });

  it('logout destroys the session row and clears the cookie; it works when already signed out', async () => {
    const app = await start();
    const { cookie, user } = await signUp(app);
    const res = await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ ok: true });
    const cleared = sessionCookieOf(res)!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await app.deps.database.db.selectFrom('sessions').select('idHash').where('userId', '=', user.id).execute()).toHaveLength(0);
    expect((await me(app, cookie)).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
  });

  it('logging out one device leaves the others signed in', async () => {
    const app = await start();
    const { cookie: first } = await signUp(app, { username: 'twodevices' });
    const second = `${SESSION_COOKIE}=${sessionCookieOf(await post(app, '/api/login', { username: 'twodevices', password: TEST_PASSWORD }))!.value}`;
    await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: first } });
    expect((await me(app, second)).statusCode).toBe(200);
  });
});

describe('session lifetime', () => {
  it('survives a server restart on the same database file', async () => {
    const file = tempDbFile();
    const first = await buildApp(testConfig({ databaseFile: file }));
    const { cookie, user } = await signUp(first);
    await first.close();
    const second = await buildApp(testConfig({ databaseFile: file }));
    try {
      expect(json(await me(second, cookie))).toEqual(user);
    } finally {
      await second.close();
    }
  });

  it('expires after sessionTtlDays without use, and the expired row is removed', async () => {
    const app = await start({ sessionTtlDays: 7 });
    const t0 = Date.UTC(2030, 0, 1);
    setNow(app, t0);
    const { cookie } = await signUp(app);
    setNow(app, t0 + 7 * DAY - 1000);
    expect((await me(app, cookie)).statusCode).toBe(200);
    // that use slid the expiry forward by another 7 days
    setNow(app, t0 + 14 * DAY - 2000);
    expect((await me(app, cookie)).statusCode).toBe(200);
    setNow(app, t0 + 21 * DAY);
    expect((await me(app, cookie)).statusCode).toBe(401);
    expect(await app.deps.database.db.selectFrom('sessions').select('idHash').execute()).toHaveLength(0);
  });

  it('writes lastSeenAt at most once an hour, and refreshes the cookie when it does', async () => {
    const app = await start();
    const t0 = Date.UTC(2030, 0, 1);
    setNow(app, t0);
    const { cookie } = await signUp(app);
    const lastSeen = async () => (await app.deps.database.db.selectFrom('sessions').select('lastSeenAt').executeTakeFirstOrThrow()).lastSeenAt;

    setNow(app, t0 + 10 * 60 * 1000);
    const quiet = await me(app, cookie);
    expect(quiet.statusCode).toBe(200);
    expect(quiet.headers['set-cookie']).toBeUndefined();
    expect(await lastSeen()).toBe(new Date(t0).toISOString());

    setNow(app, t0 + SESSION_TOUCH_INTERVAL_MS);
    const touched = await me(app, cookie);
    expect(await lastSeen()).toBe(new Date(t0 + SESSION_TOUCH_INTERVAL_MS).toISOString());
    expect(sessionCookieOf(touched)?.value).toBe(cookie.split('=')[1]);
  });

  it('prunes other expired sessions at the next login', async () => {
    const app = await start({ sessionTtlDays: 1 });
    const t0 = Date.UTC(2030, 0, 1);
    setNow(app, t0);
    await signUp(app);
    await signUp(app);
    setNow(app, t0 + 2 * DAY);
    await signUp(app);
    expect(await app.deps.database.db.selectFrom('sessions').select('idHash').execute()).toHaveLength(1);
  });
});

describe('rate limiting', () => {
  it('limits login and register attempts per IP per minute, with Retry-After, then lets the IP in again', async () => {
    const app = await start({ rateLimit: { perIpPerMinute: 3, failuresPerAccount: 1000 } });
    const t0 = Date.UTC(2030, 0, 1);
    setNow(app, t0);
    const ip = '203.0.113.7';
    expect((await post(app, '/api/register', { username: 'iplimit', password: 'sesame-42x', displayName: 'IP' }, { remoteAddress: ip })).statusCode).toBe(201);
    expect((await post(app, '/api/login', { username: 'iplimit', password: 'wrong-one' }, { remoteAddress: ip })).statusCode).toBe(401);
    expect((await post(app, '/api/login', { username: 'iplimit', password: 'wrong-one' }, { remoteAddress: ip })).statusCode).toBe(401);

    setNow(app, t0 + 20_000);
    const limited = await post(app, '/api/login', { username: 'iplimit', password: 'sesame-42x' }, { remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(json(limited)).toEqual({ message: 'Too many attempts. Please wait a moment and try again.', code: 'RATE_LIMITED' });
    expect(limited.headers['retry-after']).toBe('40');
    expect((await post(app, '/api/register', { username: 'iplimit2', password: 'sesame-42x', displayName: 'IP' }, { remoteAddress: ip })).statusCode).toBe(429);

    // another address is unaffected
    expect((await post(app, '/api/login', { username: 'iplimit', password: 'sesame-42x' }, { remoteAddress: '198.51.100.1' })).statusCode).toBe(200);

    setNow(app, t0 + 60_000);
    expect((await post(app, '/api/login', { username: 'iplimit', password: 'sesame-42x' }, { remoteAddress: ip })).statusCode).toBe(200);
  });

  it('slows strangers down after repeated failures (doubling waits), while the owner from a known address still signs in', async () => {
    const app = await start({ rateLimit: { perIpPerMinute: 1000, failuresPerAccount: 3 } });
    const t0 = Date.UTC(2030, 0, 1);
    setNow(app, t0);
    await signUp(app, { username: 'lockme' });
    await signUp(app, { username: 'bystander' });
    for (let i = 0; i < 3; i++) {
      // from different addresses: the count is per account, not per IP
      const res = await post(app, '/api/login', { username: 'lockme', password: 'guess' + i }, { remoteAddress: `203.0.113.${i + 1}` });
      expect(res.statusCode).toBe(401);
    }
    // A stranger (new address, no device cookie) must now wait, even with the right password.
    const locked = await post(app, '/api/login', { username: 'LockMe', password: TEST_PASSWORD }, { remoteAddress: '203.0.113.9' });
    expect(locked.statusCode).toBe(429);
    expect(json(locked)).toEqual({ message: 'Too many attempts. Please wait a moment and try again.', code: 'RATE_LIMITED' });
    expect(locked.headers['retry-after']).toBe('30');
    expect((await post(app, '/api/login', { username: 'bystander', password: TEST_PASSWORD }, { remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
    // The owner, from the address the account signed up from, is not held up by the strangers.
    expect((await post(app, '/api/login', { username: 'lockme', password: TEST_PASSWORD })).statusCode).toBe(200);

    // The next stranger attempt after the wait is allowed, and the wait after it doubles.
    setNow(app, t0 + 30_000);
    expect((await post(app, '/api/login', { username: 'lockme', password: 'guess3' }, { remoteAddress: '203.0.113.4' })).statusCode).toBe(401);
    expect((await post(app, '/api/login', { username: 'lockme', password: 'guess4' }, { remoteAddress: '203.0.113.5' })).headers['retry-after']).toBe('60');
    setNow(app, t0 + 90_000);
    expect((await post(app, '/api/login', { username: 'lockme', password: TEST_PASSWORD }, { remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
  });

  it('locks unknown usernames the same way, so a lock reveals nothing', async () => {
    const app = await start({ rateLimit: { perIpPerMinute: 1000, failuresPerAccount: 2 } });
    for (let i = 0; i < 2; i++) await post(app, '/api/login', { username: 'ghost', password: 'guess' + i });
    expect((await post(app, '/api/login', { username: 'ghost', password: 'guess' })).statusCode).toBe(429);
  });

  it('forgets failures after a successful login', async () => {
    const app = await start({ rateLimit: { perIpPerMinute: 1000, failuresPerAccount: 3 } });
    await signUp(app, { username: 'forgiven' });
    const attempt = (password: string) => post(app, '/api/login', { username: 'forgiven', password });
    for (const password of ['bad-1', 'bad-2', TEST_PASSWORD, 'bad-3', 'bad-4']) await attempt(password);
    expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('counts in the database, so the limit holds across restarts and instances', async () => {
    const file = tempDbFile();
    const config = testConfig({ databaseFile: file, rateLimit: { perIpPerMinute: 1000, failuresPerAccount: 2 } });
    const a = await buildApp(config);
    const b = await buildApp(config);
    try {
      await signUp(a, { username: 'shared' });
      expect((await post(a, '/api/login', { username: 'shared', password: 'bad-1' })).statusCode).toBe(401);
      expect((await post(b, '/api/login', { username: 'shared', password: 'bad-2' })).statusCode).toBe(401);
      expect((await post(a, '/api/login', { username: 'shared', password: TEST_PASSWORD })).statusCode).toBe(429);
      expect((await post(b, '/api/login', { username: 'shared', password: TEST_PASSWORD })).statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('password hashes', () => {
  it('verify only the right password, and reject malformed or absurd stored values', async () => {
    const app = await start();
    const { user } = await signUp(app, { password: 'pässwörd-1' });
    const { passwordHash } = await app.deps.database.db.selectFrom('users').select('passwordHash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword('pässwörd-1', passwordHash)).toBe(true);
    expect(await verifyPassword('pässwörd-2', passwordHash)).toBe(false);
    for (const bad of ['', 'plain', 'bcrypt$1$2$3$4$5', passwordHash.replace('$1024$', '$1000$'), passwordHash.replace('$1024$', `$${2 ** 30}$`)]) {
      expect(await verifyPassword('pässwörd-1', bad)).toBe(false);
    }
  });
});

