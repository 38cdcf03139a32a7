/**
 * Refuse before reading (docs/server.md#security): a request the server refuses costs it its
 * headers, not its body. Bytes are counted on the server's own sockets; the client streams as fast
 * as the connection takes, up to a bound, and the refusal must have closed the connection by then.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TOO_MANY_UPLOADS_MESSAGE } from '../../src/http/unread-bodies.ts';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { MiB, listen, readByServer, streamBody } from '../support/streamed-bodies.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('refused bodies are not read', () => {
  it('a 2 GB body claimed to a protected route, anonymous: 401 after at most 1 MB read, and the connection closed', async () => {
    t = await createTestApp();
    const listening = await listen(t.app);
    const head = 'POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000000\r\n\r\n';
    const result = await streamBody(listening.port, head, false);
    expect(result.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(result.answer.toLowerCase()).toContain('connection: close');
    expect(result.closedEarly).toBe(true);
    expect(readByServer(listening)).toBeLessThanOrEqual(MiB);
  });

  it('a body within the limit to a protected route, anonymous: 401 after at most 1 MB of its 4 MB read, and the connection closed', async () => {
    t = await createTestApp({ bodyLimitBytes: 8 * MiB });
    const listening = await listen(t.app);
    const head = `POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${4 * MiB}\r\n\r\n`;
    const result = await streamBody(listening.port, head, false);
    expect(result.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(result.answer.toLowerCase()).toContain('connection: close');
    expect(result.closedEarly).toBe(true);
    expect(readByServer(listening)).toBeLessThanOrEqual(MiB);
  });

  it('a chunked (length-less) body to a protected route, anonymous: the same', async () => {
    t = await createTestApp();
    const listening = await listen(t.app);
    const head = 'POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const result = await streamBody(listening.port, head, true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(result.closedEarly).toBe(true);
    expect(readByServer(listening)).toBeLessThanOrEqual(MiB);
  });

  it('signed in, a body over the route limit: 413 from Content-Length alone; chunked, cut at the limit', async () => {
    t = await createTestApp({ bodyLimitBytes: 256 * 1024 });
    const author = await signUp(t.app);
    const listening = await listen(t.app);
    const declared = `POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${author.cookie}\r\nContent-Type: application/json\r\nContent-Length: 2000000000\r\n\r\n`;
    const refused = await streamBody(listening.port, declared, false);
    expect(refused.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(refused.closedEarly).toBe(true);
    expect(readByServer(listening)).toBeLessThanOrEqual(MiB);

    const chunked = `POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${author.cookie}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const cut = await streamBody(listening.port, chunked, true);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(cut.closedEarly).toBe(true);
    // The limit, plus what was in flight when it was reached.
    expect(readByServer(listening)).toBeLessThanOrEqual(MiB);
  });
});

describe('concurrent uploads', () => {
  /** Opens a request whose body (of `length` bytes) arrives only when `finish` is called. */
  function openUpload(port: number, cookie: string, length: number) {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const connected = new Promise<void>((resolve) =>
      socket.once('connect', () => {
        socket.write(`POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
        resolve();
      }),
    );
    return {
      connected,
      closed,
      answer: () => answer,
      finish: (body: string) => socket.write(body),
      destroy: () => socket.destroy(),
    };
  }

  const waitFor = async (condition: () => boolean) => {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('an author sending more bodies at once than the limit gets 429 for the next one, before its body is read; others are not affected', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const other = await signUp(t.app);
    const { port } = await listen(t.app);
    const body = JSON.stringify({ title: 'Slowly' });
    const open = Array.from({ length: 8 }, () => openUpload(port, author.cookie, body.length));
    await Promise.all(open.map((u) => u.connected));
    // Let the server see all eight requests' headers.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ninth = openUpload(port, author.cookie, body.length);
    await ninth.connected;
    await waitFor(() => ninth.answer().length > 0);
    expect(ninth.answer()).toMatch(/^HTTP\/1\.1 429/);
    expect(ninth.answer()).toContain(TOO_MANY_UPLOADS_MESSAGE);
    await ninth.closed;

    // Another author is not counted against this one.
    const theirs = await t.app.inject({ method: 'POST', url: '/api/series', headers: other.headers, payload: { title: 'Mine' } });
    expect(theirs.statusCode).toBe(201);

    // The eight finish normally, and then the author may upload again.
    for (const upload of open) upload.finish(body);
    await Promise.all(open.map((u) => waitFor(() => u.answer().length > 0)));
    for (const upload of open) expect(upload.answer()).toMatch(/^HTTP\/1\.1 201/);
    for (const upload of open) upload.destroy();
    const again = await t.app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'Again' } });
    expect(again.statusCode).toBe(201);
  });
});

describe('ordinary parallel writes', () => {
  it('24 saves of one author at once over real connections, bodies arriving whole, are all served', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        fetch(`${base}/api/series`, { method: 'POST', headers: author.headers, body: JSON.stringify({ title: `Series ${i}` }) }).then((res) => res.status),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: 24 }, () => 201));
  });
});

describe('parallel logins', () => {
  it('from one address, logins past two at once are refused with 429 at once, not queued behind the hashes', async () => {
    t = await createTestApp({ rateLimit: { perIpPerMinute: 1_000, failuresPerAccount: 1_000 } });
    await signUp(t.app, { username: 'parallel_writer' });
    const attempts = Array.from({ length: 6 }, () =>
      t!.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '198.51.100.4', payload: { username: 'parallel_writer', password: 'not the password' } }),
    );
    // Another address is not held back by the first one's parallel attempts.
    const elsewhere = t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '198.51.100.9', payload: { username: 'parallel_writer', password: 'not the password' } });
    const statuses = (await Promise.all(attempts)).map((res) => res.statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    expect(statuses.filter((s) => s === 401)).toHaveLength(2);
    expect((await elsewhere).statusCode).toBe(401);
    const refused = (await Promise.all(attempts)).find((res) => res.statusCode === 429)!;
    expect(json(refused).code).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('1');
    // Once those are done, the address may try again.
    const later = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '198.51.100.4', payload: { username: 'parallel_writer', password: 'not the password' } });
    expect(later.statusCode).toBe(401);
  });
});
