/** Serving the built web app next to the API (src/web/plugin.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, json } from '../support/helpers.ts';

const INDEX = '<!doctype html><title>Chronicler</title><div id="root"></div>';
let base: string;
let dist: string;
let t: TestApp;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-web-'));
  dist = path.join(base, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(base, 'outside.txt'), 'OUTSIDE-THE-ROOT');
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'index-3f9a1c.js'), 'console.log("app")');
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {})');
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Chronicler"}');
  fs.writeFileSync(path.join(dist, '.env'), 'SECRET=1');
  t = await createTestApp({ webDist: dist });
});

afterAll(async () => {
  await t.close();
  fs.rmSync(base, { recursive: true, force: true });
});

const get = (url: string, accept?: string) => t.app.inject({ method: 'GET', url, headers: accept ? { accept } : {} });
const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';

describe('web app serving', () => {
  it('serves index.html at / without long caching', async () => {
    const res = await get('/', HTML);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('caches hashed assets for a year', async () => {
    const res = await get('/assets/index-3f9a1c.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('makes the service worker and manifest revalidate', async () => {
    for (const url of ['/sw.js', '/manifest.webmanifest']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers page loads of client-side routes with index.html', async () => {
    for (const url of ['/series/0190a0a0-0000-7000-8000-000000000000', '/login?registered=true', '/subscriptions']) {
      const res = await get(url, HTML);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('keeps unknown API paths, non-HTML requests and missing assets as JSON 404s', async () => {
    for (const [url, accept] of [['/api/nope', HTML], ['/api', HTML], ['/series/1', 'application/json'], ['/assets/index-old.js', HTML]] as const) {
      const res = await get(url, accept);
      expect(res.statusCode, url).toBe(404);
      expect(json(res), url).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    }
    const post = await t.app.inject({ method: 'POST', url: '/anything', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('never serves files outside the folder or dotfiles', async () => {
    for (const url of ['/../outside.txt', '/%2e%2e/outside.txt', '/..%2foutside.txt', '/assets/..%2f..%2foutside.txt', '/assets/%2e%2e/%2e%2e/outside.txt', '/.env']) {
      for (const accept of [undefined, HTML]) {
        const res = await get(url, accept);
        expect(res.body, url).not.toContain('OUTSIDE-THE-ROOT');
        expect(res.body, url).not.toContain('SECRET');
      }
    }
  });

  it('still answers the API', async () => {
    const res = await get('/api/user', HTML);
    expect(res.statusCode).toBe(401);
  });

  it('serves only the API when the folder is missing', async () => {
    const apiOnly = await createTestApp({ webDist: path.join(dist, 'does-not-exist') });
    try {
      expect((await get('/api/user')).statusCode).toBe(401);
      const res = await apiOnly.app.inject({ method: 'GET', url: '/', headers: { accept: HTML } });
      expect(res.statusCode).toBe(404);
      expect(json(res).code).toBe('NOT_FOUND');
    } finally {
      await apiOnly.close();
    }
  });
});
