/**
 * A picture too large for the owner's plan costs the server its headers, not its body
 * (src/media/upload.ts, docs/decisions/0015-isolation.md): refused from Content-Length before a
 * byte is read, and a chunked body without a length cut at the plan's per-picture size.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pictureMaxBytes } from '@chronicler/schema/media';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { MiB, listen, readByServer, streamBody } from '../support/streamed-bodies.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const HASH = 'a'.repeat(64);

async function ownerWithSeries(app: TestApp['app']) {
  const owner = await signUp(app, { plan: 'wordsmith' });
  const created = await app.inject({ method: 'POST', url: '/api/series', headers: owner.headers, payload: { title: 'Maps', description: '', totalBooks: 1 } });
  return { owner, seriesId: json(created).id as string };
}

describe("a picture over the plan's size", () => {
  it('is refused with 413 from its Content-Length with at most 1 MB of it read, and the connection closed', async () => {
    t = await createTestApp();
    const { owner, seriesId } = await ownerWithSeries(t.app);
    const listening = await listen(t.app);
    const length = pictureMaxBytes('wordsmith') + 1;
    const head = `PUT /api/series/${seriesId}/media/${HASH} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${owner.cookie}\r\nContent-Type: image/png\r\nContent-Length: ${length}\r\n\r\n`;
    const result = await streamBody(listening.port, head, false);
    expect(result.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(result.answer.toLowerCase()).toContain('connection: close');
    expect(result.closedEarly).toBe(true);
    expect(readByServer(listening)).toBeLessThanOrEqual(MiB);
  });

  it('sent chunked, without a length, is cut at the plan size: 413, not read to its end', async () => {
    t = await createTestApp();
    const { owner, seriesId } = await ownerWithSeries(t.app);
    const listening = await listen(t.app);
    const head = `PUT /api/series/${seriesId}/media/${HASH} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${owner.cookie}\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const result = await streamBody(listening.port, head, true);
    // The 413 is written before the connection closes, but a client still sending at full speed on
    // loopback can lose it to the reset that closing a socket with unread bytes sends (Node closes
    // a `Connection: close` answer's socket once it is written): when it arrives, it is the 413.
    expect(result.answer === '' || /^HTTP\/1\.1 413/.test(result.answer), result.answer.slice(0, 80)).toBe(true);
    expect(result.closedEarly).toBe(true);
    // The plan's size, plus what was in flight when it was reached.
    expect(readByServer(listening)).toBeLessThanOrEqual(pictureMaxBytes('wordsmith') + 2 * MiB);
  });

  it('to a series of another author: 404 before a byte is read', async () => {
    t = await createTestApp();
    const { seriesId } = await ownerWithSeries(t.app);
    const stranger = await signUp(t.app, { plan: 'legendary' });
    const listening = await listen(t.app);
    const head = `PUT /api/series/${seriesId}/media/${HASH} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${stranger.cookie}\r\nContent-Type: image/png\r\nContent-Length: ${8 * MiB}\r\n\r\n`;
    const result = await streamBody(listening.port, head, false);
    expect(result.answer).toMatch(/^HTTP\/1\.1 404/);
    expect(result.closedEarly).toBe(true);
    expect(readByServer(listening)).toBeLessThanOrEqual(MiB);
  });
});
