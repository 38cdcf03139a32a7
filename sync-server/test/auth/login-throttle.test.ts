/**
 * Login throttling: a stranger cannot lock the owner out, parallel guesses cannot pass the limit,
 * and several instances on one PostgreSQL database count every attempt together.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../../src/auth/throttle.ts';
import { TEST_PASSWORD, type TestApp, createTestApp, createTestAppPair, onPostgres, signUp } from '../support/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const login = (username: string, password: string, remoteAddress: string, cookie?: string) =>
  t!.app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers: cookie ? { cookie } : {}, payload: { username, password } });

describe('login throttling', () => {
  it('10 wrong passwords from a stranger do not lock the owner out of a known address or device', async () => {
    t = await createTestApp({ rateLimit: { perIpPerMinute: 1000, failuresPerAccount: 10 } });
    await signUp(t.app, { username: 'bob' }); // from 127.0.0.1: a known address from now on
    // Bob signs in once on his phone (another address): that browser keeps a device cookie.
    const phone = await login('bob', TEST_PASSWORD, '198.51.100.20');
    expect(phone.statusCode).toBe(200);
    const device = phone.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(device?.httpOnly).toBe(true);

    for (let i = 0; i < 12; i++) await login('bob', `guess ${i}`, '203.0.113.66');
    expect((await login('bob', TEST_PASSWORD, '203.0.113.66')).statusCode).toBe(429);
    expect((await login('bob', TEST_PASSWORD, '192.0.2.1')).statusCode).toBe(429); // a stranger elsewhere waits too

    expect((await login('bob', TEST_PASSWORD, '127.0.0.1')).statusCode).toBe(200);
    // The phone on a new network (hotel Wi-Fi) passes by its device cookie.
    expect((await login('bob', TEST_PASSWORD, '192.0.2.77', `${DEVICE_COOKIE}=${device!.value}`)).statusCode).toBe(200);
    // A forged or another account's device cookie is a stranger's.
    expect((await login('bob', TEST_PASSWORD, '192.0.2.78', `${DEVICE_COOKIE}=x.${device!.value.split('.')[1]}`)).statusCode).toBe(429);
  });

  it('26 parallel logins (25 wrong, 1 right) cannot check more passwords than the limit', async () => {
    t = await createTestApp({ rateLimit: { perIpPerMinute: 1000, failuresPerAccount: 10 } });
    await signUp(t.app, { username: 'carol' });
    const answers = await Promise.all(
      Array.from({ length: 26 }, (_, i) => login('carol', i === 25 ? TEST_PASSWORD : `guess ${i}`, `203.0.113.${i + 1}`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    const checked = statuses.filter((s) => s === 200 || s === 401).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(26 - checked);
    // The 26th (the right password) came after the limit: it waited too.
    expect(statuses[25]).toBe(429);
  });
});

describe.skipIf(!onPostgres)('login throttling on two instances of one PostgreSQL database', () => {
  it('counts an address’s attempts on every instance together: spreading them out gains nothing', async () => {
    const pair = await createTestAppPair({ rateLimit: { perIpPerMinute: 4, failuresPerAccount: 1000 } });
    try {
      const [a, b] = pair.apps;
      await signUp(a, { username: 'dora' });
      const attempt = (app: typeof a) => app.inject({ method: 'POST', url: '/api/login', remoteAddress: '203.0.113.90', payload: { username: 'dora', password: 'not hers' } });
      const codes = [];
      for (const app of [a, b, a, b, a, b]) codes.push((await attempt(app)).statusCode);
      expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
    } finally {
      await pair.close();
    }
  });
});
