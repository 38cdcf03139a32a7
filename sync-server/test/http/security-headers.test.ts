/**
 * Security headers on the app shell, the service worker and the API (docs/server.md#security).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, signUp } from '../support/helpers.ts';

const BOOT_SCRIPT = "document.documentElement.setAttribute('data-theme','light');";
let dist: string;
let t: TestApp | undefined;
beforeAll(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-headers-'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><script>${BOOT_SCRIPT}</script><script type="module" src="/assets/index-1.js"></script></head><body></body></html>`,
  );
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {})');
});
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function directives(csp: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(csp).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers', () => {
  it('sends a strict CSP, nosniff, a referrer policy and no framing on /, /sw.js and /api', async () => {
    t = await createTestApp({ webDist: dist });
    const author = await signUp(t.app);
    const answers = [
      await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } }),
      await t.app.inject({ method: 'GET', url: '/sw.js' }),
      await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: author.cookie } }),
      await t.app.inject({ method: 'GET', url: '/api/user' }),
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'nobody', password: 'wrong password' } }),
    ];
    const hash = `'sha256-${crypto.createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;
    for (const res of answers) {
      const csp = directives(res.headers['content-security-policy'] as string);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'", hash]);
      expect(String(res.headers['content-security-policy'])).not.toMatch(/stripe|unsafe-eval/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      // Plain HTTP: no HSTS.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    for (const res of answers.slice(2)) expect(res.headers['cache-control']).toBe('no-store');
    expect(answers[0]!.headers['cache-control']).toBe('no-cache');
  });

  it('sends HSTS over TLS (via a trusted proxy) and allows Stripe only when payments are configured', async () => {
    t = await createTestApp({
      trustProxy: ['loopback'],
      stripe: { secretKey: 'sk_test_x', webhookSecret: null, apiHost: null, apiPort: null, apiProtocol: 'https' },
    });
    const tls = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    const csp = directives(tls.headers['content-security-policy'] as string);
    expect(csp.get('script-src')).toContain('https://js.stripe.com');
    expect(csp.get('connect-src')).toContain('https://api.stripe.com');
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});
