/**
 * First load (docs/web.md#first-load): the server sets a page-readable "signed in" hint beside the
 * httpOnly session cookie and clears it with the session, so the app does not ask GET /api/user on
 * a first visit. The hint grants nothing, and the spec's 401 stays for callers that ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '@chronicler/schema';
import { TEST_PASSWORD, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('signed-in hint cookie', () => {
  it('comes with the session on register and login: readable by the page, same path and lifetime', async () => {
    const author = await signUp(t.app);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: author.user.username, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const session = login.cookies.find((c) => c.name === 'chronicler_session')!;
    const hint = login.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE);
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Lax', maxAge: session.maxAge });
    expect(hint!.httpOnly).toBeFalsy();
    expect(session.httpOnly).toBe(true);
  });

  it('is cleared by sign-out and by sign out everywhere', async () => {
    for (const url of ['/api/logout', '/api/logout/everywhere']) {
      const author = await signUp(t.app);
      const res = await t.app.inject({ method: 'POST', url, headers: author.headers, payload: {} });
      expect(res.statusCode, url).toBe(200);
      const hint = res.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE);
      expect(hint?.value, url).toBe('');
      expect(new Date(hint!.expires!).getTime(), url).toBeLessThan(Date.now());
    }
  });

  it('grants nothing: the hint alone gets the spec 401 from GET /api/user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: `${SIGNED_IN_HINT_COOKIE}=1` } });
    expect(res.statusCode).toBe(401);
    expect(json(res)).toEqual({ message: 'Please sign in to continue', code: 'UNAUTHENTICATED' });
  });
});
