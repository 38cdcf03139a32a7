/**
 * Request limits: anonymous bodies are refused before they are read or parsed; slow bodies are
 * timed out; large bodies are allowed only on the batch route.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MiB = 1024 * 1024;

describe('anonymous bodies', () => {
  it('a protected route answers 401 before parsing: broken JSON, unknown fields and oversize bodies alike', async () => {
    t = await createTestApp();
    for (const payload of ['{', '{"title": 1, "surprise": true}', JSON.stringify({ title: 'x'.repeat(6 * MiB) })]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/series', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(401);
      expect(json(res).code).toBe('UNAUTHENTICATED');
    }
    const batch = await t.app.inject({ method: 'POST', url: '/api/sync/batch', headers: { 'content-type': 'application/json' }, payload: '{"entries": 7' });
    expect(batch.statusCode).toBe(401);
    // Public routes still validate for anonymous callers.
    expect((await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{' })).statusCode).toBe(400);
  });
});

describe('body limits', () => {
  it('a 200,000-word chapter fits the default limit; 6 MiB does not, except through the batch route', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const series = json(await t.app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'S' } }));
    const book = json(await t.app.inject({ method: 'POST', url: '/api/books', headers: author.headers, payload: { seriesId: series.id, title: 'B' } }));
    const longChapter = { bookId: book.id, title: 'Long', content: 'word '.repeat(200_000) };
    const saved = await t.app.inject({ method: 'POST', url: '/api/chapters', headers: author.headers, payload: longChapter });
    expect(saved.statusCode).toBe(201);

    const huge = { title: 'x', description: 'y'.repeat(6 * MiB) };
    const direct = await t.app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: huge });
    expect(direct.statusCode).toBe(413);
    const entries = Array.from({ length: 5 }, (_, i) => ({ method: 'POST', path: '/api/chapters', body: { ...longChapter, title: `Long ${i}` } }));
    const batch = await t.app.inject({ method: 'POST', url: '/api/sync/batch', headers: author.headers, payload: { entries } });
    expect(batch.payload.length).toBeGreaterThan(0);
    expect(batch.statusCode).toBe(200);
  });
});

describe('slow bodies', () => {
  it('a body trickled a byte at a time is cut off at the request timeout', async () => {
    t = await createTestApp({ requestTimeoutMs: 1_000 });
    const author = await signUp(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const started = Date.now();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
    socket.write(`POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${author.cookie}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
    try {
      const after = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 8_000))]);
      expect(after, 'the server kept the trickling connection open').toBeGreaterThan(0);
      expect(after).toBeLessThan(6_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});
