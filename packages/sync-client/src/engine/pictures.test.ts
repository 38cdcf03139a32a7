/**
 * Picture uploads through the sync loop, against a real HTTP server that keeps the pictures
 * contract (testing/picture-server.ts), and fetching them on a second device.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { type ChroniclerDb } from '../db.ts';
import type { SyncEvent } from './context.ts';
import { createPictureFetcher } from '../media/fetch.ts';
import { formatPictureRef } from '../media/picture-format.ts';
import { storeLocalPicture } from '../media/store.ts';
import { bindStatusToDb, createSyncStatusStore } from '../status.ts';
import { engineForTest, freshDb, manualClock, serverSeries } from '../testing/fixtures.ts';
import { type PictureServer, startPictureServer } from '../testing/picture-server.ts';

/** Bytes a WebP encoder could have made: the RIFF/WEBP header, then `size` bytes of picture. */
function webp(size: number, seed = 1): Blob {
  const body = new Uint8Array(size);
  for (let i = 0; i < size; i++) body[i] = (i * 31 + seed * 7) & 255;
  const header = new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ');
  return new Blob([header, body], { type: 'image/webp' });
}

let server: PictureServer;
let db: ChroniclerDb;
const clock = manualClock();
const SERIES = serverSeries();

function engine(events: SyncEvent[] = []) {
  const e = engineForTest(db, (url, init) => fetch(url, init), { baseUrl: server.baseUrl, now: clock.now });
  e.on((event) => events.push(event));
  return e;
}

const puts = () => server.log.filter((l) => l.startsWith('PUT')).length;

beforeEach(async () => {
  server = await startPictureServer();
  db = freshDb(undefined, new IDBFactory());
  await db.series.put(SERIES);
});

afterEach(async () => {
  db.close();
  await server.close();
});

describe('picture uploads', () => {
  it('keeps a picture chosen offline on the device and uploads it once when the network returns', async () => {
    server.options.online = false;
    const sha = await storeLocalPicture(db, { blob: webp(2000), type: 'image/webp', width: 40, height: 60, seriesId: SERIES.id }, clock.now());
    const sync = engine();

    const offline = await sync.push();
    expect(offline.retryAt).not.toBeNull();
    const queued = await db.pictures.get(sha);
    expect(queued).toMatchObject({ uploaded: 0, attempts: 1 });
    expect(queued!.refused).toBeUndefined();
    expect(await queued!.blob.arrayBuffer()).toEqual(await webp(2000).arrayBuffer());

    server.options.online = true;
    // Not before its retry time …
    await sync.push();
    expect(server.pictures.size).toBe(0);
    // … then once.
    clock.set(offline.retryAt!);
    await sync.push();
    await sync.push();
    expect(puts()).toBe(1);
    expect([...server.pictures.get(sha)!.seriesIds]).toEqual([SERIES.id]);
    expect(await db.pictures.get(sha)).toMatchObject({ uploaded: 1 });
  });

  it('stores a picture once when its answer was lost and the upload was sent again', async () => {
    server.options.loseAnswers = 1;
    const sha = await storeLocalPicture(db, { blob: webp(500), type: 'image/webp', width: 10, height: 10, seriesId: SERIES.id }, clock.now());
    const sync = engine();
    const first = await sync.push();
    clock.set(first.retryAt!);
    await sync.push();
    expect(puts()).toBe(2); // retried …
    expect(server.pictures.size).toBe(1); // … never duplicated
    expect(await db.pictures.get(sha)).toMatchObject({ uploaded: 1 });
  });

  it('keeps the same bytes chosen twice as one picture', async () => {
    const a = await storeLocalPicture(db, { blob: webp(300), type: 'image/webp', width: 10, height: 10, seriesId: SERIES.id });
    const b = await storeLocalPicture(db, { blob: webp(300), type: 'image/webp', width: 10, height: 10, seriesId: SERIES.id });
    expect(a).toBe(b);
    await engine().push();
    expect(await db.pictures.count()).toBe(1);
    expect(puts()).toBe(1);
  });

  it('uploads the same bytes chosen in a second series to that series too', async () => {
    const other = serverSeries();
    await db.series.put(other);
    const picture = { blob: webp(300), type: 'image/webp' as const, width: 10, height: 10 };
    const sha = await storeLocalPicture(db, { ...picture, seriesId: SERIES.id });
    const sync = engine();
    await sync.push();
    await storeLocalPicture(db, { ...picture, seriesId: other.id });
    expect(await db.pictures.get(sha)).toMatchObject({ uploaded: 0, uploadTo: [other.id] });
    await sync.push();
    expect([...server.pictures.get(sha)!.seriesIds].sort()).toEqual([SERIES.id, other.id].sort());
    expect(await db.pictures.get(sha)).toMatchObject({ uploaded: 1, uploadTo: [], inSeries: [SERIES.id, other.id] });
    expect(puts()).toBe(2);
  });

  it('surfaces a picture over the plan’s size once and does not send it again', async () => {
    server.options.perPictureBytes = 1000;
    const events: SyncEvent[] = [];
    const sync = engine(events);
    const sha = await storeLocalPicture(db, { blob: webp(5000), type: 'image/webp', width: 10, height: 10, seriesId: SERIES.id });
    const result = await sync.push();
    expect(result.retryAt).toBeNull();
    expect(events).toContainEqual({
      type: 'picture-refused',
      sha256: sha,
      seriesId: SERIES.id,
      status: 413,
      message: 'This picture is larger than your plan allows for one picture.',
    });
    expect((await db.pictures.get(sha))!.refused).toEqual({ status: 413, message: 'This picture is larger than your plan allows for one picture.' });

    clock.advance(24 * 60 * 60 * 1000);
    await sync.push();
    await sync.push();
    expect(puts()).toBe(1);
    // The picture stays on the device (it is the only copy): the author decides.
    expect(await db.pictures.get(sha)).toBeDefined();
  });

  it('refuses pictures for a plan without multimedia, and a refused picture chosen again is tried again', async () => {
    server.options.multimedia = false;
    const events: SyncEvent[] = [];
    const sync = engine(events);
    const picture = { blob: webp(300), type: 'image/webp' as const, width: 10, height: 10, seriesId: SERIES.id };
    const sha = await storeLocalPicture(db, picture);
    await sync.push();
    expect(events.find((e) => e.type === 'picture-refused')).toMatchObject({ status: 403 });

    server.options.multimedia = true; // the author upgraded
    await storeLocalPicture(db, picture);
    await sync.push();
    expect(server.pictures.has(sha)).toBe(true);
    expect(events.some((e) => e.type === 'picture-uploaded' && e.sha256 === sha)).toBe(true);
  });
});

describe('unsynced work', () => {
  it('counts a picture waiting for upload as an unsynced change until the server has it', async () => {
    const store = createSyncStatusStore();
    const unbind = bindStatusToDb(db, store);
    try {
      await storeLocalPicture(db, { blob: webp(100), type: 'image/webp', width: 1, height: 1, seriesId: SERIES.id });
      await expect.poll(() => store.getState().pendingCount).toBe(1);
      await engine().push();
      await expect.poll(() => store.getState().pendingCount).toBe(0);
    } finally {
      unbind();
    }
  });
});

describe('pictures on a second device', () => {
  it('fetches the pictures the series’ rows name, checks their bytes and keeps them offline', async () => {
    const display = await storeLocalPicture(db, { blob: webp(4000, 1), type: 'image/webp', width: 40, height: 60, seriesId: SERIES.id });
    const thumb = await storeLocalPicture(db, { blob: webp(800, 2), type: 'image/webp', width: 8, height: 12, seriesId: SERIES.id });
    await engine().push();

    const other = freshDb(undefined, new IDBFactory());
    try {
      await other.series.put({ ...SERIES, coverImage: formatPictureRef({ display, thumb }) });
      const fetcher = createPictureFetcher({ db: other, fetch: (url, init) => fetch(url, init), baseUrl: server.baseUrl });
      expect(await fetcher.prefetchSeries(SERIES.id)).toEqual({ stored: 2, failed: 0 });
      expect(await other.pictures.get(thumb)).toMatchObject({ uploaded: 1, bytes: (await webp(800, 2).arrayBuffer()).byteLength });

      // Offline now: everything is on the device already.
      server.options.online = false;
      expect(await fetcher.prefetchSeries(SERIES.id)).toEqual({ stored: 0, failed: 0 });
      expect(await fetcher.fetchPicture(SERIES.id, display)).toBe('present');
      expect(await fetcher.fetchPicture(SERIES.id, 'f'.repeat(64))).toBe('failed');
    } finally {
      other.close();
    }
  });

  it('answers missing for a picture the server does not have (the field arrived before the bytes)', async () => {
    const fetcher = createPictureFetcher({ db, fetch: (url, init) => fetch(url, init), baseUrl: server.baseUrl });
    expect(await fetcher.fetchPicture(SERIES.id, 'e'.repeat(64))).toBe('missing');
    expect(await db.pictures.count()).toBe(0);
  });
});
