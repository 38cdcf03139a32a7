/**
 * TRUST_PROXY names the proxies to believe (docs/server.md#security); it can never trust every hop,
 * so rotating X-Forwarded-For does not dodge the per-address login limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, trustProxyFrom } from '../../src/config/config.ts';
import { type TestApp, createTestApp } from '../support/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('TRUST_PROXY', () => {
  it('refuses "true" and hop counts, accepts addresses, CIDRs and named ranges', () => {
    expect(() => trustProxyFrom('true')).toThrow(/anyone/);
    expect(() => trustProxyFrom('2')).toThrow(/anyone/);
    for (const everyone of ['0.0.0.0/0', '::/0', '10.0.0.1,0.0.0.0/0', '0.0.0.0/0.0.0.0']) expect(() => trustProxyFrom(everyone), everyone).toThrow(/anyone/);
    expect(() => trustProxyFrom('10.0.0.0/33')).toThrow(/not an address/);
    expect(() => trustProxyFrom('proxy.example')).toThrow(/not an address/);
    expect(trustProxyFrom(undefined)).toBe(false);
    expect(trustProxyFrom('false')).toBe(false);
    expect(trustProxyFrom(' 127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback ')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    expect(() => configFromEnv({ TRUST_PROXY: 'true', SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/chronicler-trust-proxy' })).toThrow();
  });

  /** 30 failed logins from `peer`, each with its own X-Forwarded-For; answers their statuses. */
  async function rotatingLogins(peer: string, forwardedFor: (i: number) => string): Promise<number[]> {
    t = await createTestApp({ trustProxy: ['10.0.0.1'], rateLimit: { perIpPerMinute: 5, failuresPerAccount: 1_000_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: peer,
        headers: { 'x-forwarded-for': forwardedFor(i) },
        payload: { username: `nobody${i}`, password: 'wrong password' },
      });
      statuses.push(res.statusCode);
    }
    return statuses;
  }

  it('30 logins with rotating X-Forwarded-For from an untrusted peer are limited by the peer address', async () => {
    const statuses = await rotatingLogins('192.0.2.7', (i) => `198.51.100.${i}`);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });

  it('behind a trusted proxy, each client address is counted on its own', async () => {
    const statuses = await rotatingLogins('10.0.0.1', (i) => `198.51.100.${i % 6}`);
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
  });
});
