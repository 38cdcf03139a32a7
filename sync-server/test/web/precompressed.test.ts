/**
 * The built app goes out precompressed (brotli, gzip) with the right Content-Encoding and Vary,
 * HTML and the service worker revalidate, hashed assets are immutable, and source maps are served
 * only with SOURCE_MAPS=true (src/web/plugin.ts). The copies are made as the build makes them
 * (node:zlib, as web/scripts/precompress.mjs does).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/helpers.ts';

const INDEX = `<!doctype html><title>Chronicler</title><div id="root"></div>${'<!-- padding -->'.repeat(40)}`;
const APP_JS = `export const chapters = [${Array.from({ length: 400 }, (_, i) => `"chapter ${i}"`).join(',')}];\n//# sourceMappingURL=index-3f9a1c.js.map`;
const SW_JS = `self.addEventListener("install", () => {});${'/* precache */'.repeat(50)}`;
const MAP = JSON.stringify({ version: 3, sources: ['src/main.tsx'], mappings: 'AAAA' });
let base: string;
let dist: string;
let t: TestApp;
let withMaps: TestApp;

function writeWithCopies(relative: string, body: string): void {
  const file = path.join(dist, relative);
  fs.writeFileSync(file, body);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body));
}

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-web-br-'));
  dist = path.join(base, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeWithCopies('index.html', INDEX);
  writeWithCopies('assets/index-3f9a1c.js', APP_JS);
  writeWithCopies('assets/index-3f9a1c.js.map', MAP);
  writeWithCopies('sw.js', SW_JS);
  // An image: no compressed copy (the build only compresses text).
  fs.writeFileSync(path.join(dist, 'assets', 'icon-77aa.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  t = await createTestApp({ webDist: dist });
  withMaps = await createTestApp({ webDist: dist, serveSourceMaps: true });
});

afterAll(async () => {
  await t.close();
  await withMaps.close();
  fs.rmSync(base, { recursive: true, force: true });
});

const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';
const get = (app: TestApp, url: string, headers: Record<string, string> = {}) => app.app.inject({ method: 'GET', url, headers });

function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

describe('precompressed web app', () => {
  it('sends brotli to a browser that accepts it, with Vary and the real content type', async () => {
    const res = await get(t, '/assets/index-3f9a1c.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(APP_JS.length / 3);
    expect(decoded(res.rawPayload, 'br')).toBe(APP_JS);
  });

  it('sends gzip when brotli is not accepted, and the file as is when nothing is', async () => {
    const gz = await get(t, '/assets/index-3f9a1c.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz.rawPayload, 'gzip')).toBe(APP_JS);
    const plain = await get(t, '/assets/index-3f9a1c.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(APP_JS);
  });

  it('sends the page shell compressed and revalidated, at / and on client-side routes', async () => {
    for (const url of ['/', '/auth', '/series/0190a0a0-0000-7000-8000-000000000000']) {
      const res = await get(t, url, { accept: HTML, 'accept-encoding': 'gzip, br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(String(res.headers.vary), url).toMatch(/accept-encoding/i);
      expect(decoded(res.rawPayload, 'br'), url).toBe(INDEX);
    }
  });

  it('makes the compressed service worker revalidate', async () => {
    const res = await get(t, '/sw.js', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(decoded(res.rawPayload, 'br')).toBe(SW_JS);
  });

  it('sends a file without a compressed copy as is', async () => {
    const res = await get(t, '/assets/icon-77aa.png', { 'accept-encoding': 'gzip, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('keeps source maps private unless SOURCE_MAPS=true', async () => {
    for (const url of ['/assets/index-3f9a1c.js.map', '/assets/index-3f9a1c.js%2emap', '/assets/index-3f9a1c.js.%6dap']) {
      for (const encoding of ['br', 'identity']) {
        const res = await get(t, url, { 'accept-encoding': encoding });
        expect(res.statusCode, `${url} ${encoding}`).toBe(404);
        expect(res.body, url).not.toContain('mappings');
      }
    }
    const served = await get(withMaps, '/assets/index-3f9a1c.js.map', { 'accept-encoding': 'gzip' });
    expect(served.statusCode).toBe(200);
    expect(decoded(served.rawPayload, served.headers['content-encoding'] as string | undefined)).toBe(MAP);
  });
});
