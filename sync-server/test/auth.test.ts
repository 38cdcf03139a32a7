import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, json, signUp } from './helpers.ts';

let t: TestApp;
afterEach(async () => t?.close());

describe('auth basics', () => {
  it('registers, reads the user, logs out', async () => {
    t = await createTestApp();
    const { user, headers, cookie } = await signUp(t.app, { plan: 'legendary' });
    expect(user.plan).toBe('legendary');
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(json(me)).toEqual(user);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });
});
