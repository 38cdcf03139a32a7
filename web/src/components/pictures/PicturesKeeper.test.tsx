import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatPictureRef, sha256Hex } from '@chronicler/sync-client';
import { serverCharacter, serverSeries } from '@chronicler/sync-client/testing';
import { stubFetch } from '@/test/fetch-stub';
import { renderWithDb } from '@/test/renderWithDb';
import PicturesKeeper from './PicturesKeeper';

afterEach(() => vi.unstubAllGlobals());

describe('PicturesKeeper', () => {
  it('brings the open series’ pictures to the device and forgets those no row names', async () => {
    const series = serverSeries();
    const bytes = (seed: number) => new Uint8Array([...new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '), seed, seed + 1]);
    const [display, thumb] = [await sha256Hex(bytes(1)), await sha256Hex(bytes(2))];
    // The server's pictures route answers bytes (the JSON stub does not).
    const served = new Map([
      [`/api/series/${series.id}/media/${display}`, bytes(1)],
      [`/api/series/${series.id}/media/${thumb}`, bytes(2)],
    ]);
    vi.stubGlobal('fetch', async (url: string) => {
      const body = served.get(url.replace(/^https?:\/\/[^/]+/, ''));
      return body ? new Response(body, { status: 200, headers: { 'Content-Type': 'image/webp' } }) : new Response(null, { status: 404 });
    });
    const { db } = renderWithDb(<p>screen</p>);
    await db.series.put(series);
    await db.characters.put(serverCharacter(series.id, { avatarUrl: formatPictureRef({ display, thumb }) }));
    await db.pictures.add({
      sha256: 'c'.repeat(64),
      blob: new Blob(['x']),
      type: 'image/webp',
      bytes: 1,
      width: 1,
      height: 1,
      seriesId: series.id,
      inSeries: [series.id],
      uploadTo: [],
      uploaded: 1,
      lastUsedAt: 0,
      createdAt: 0,
      attempts: 0,
      nextAttemptAt: 0,
    });
    renderWithDb(<PicturesKeeper />, { db });
    await vi.waitFor(async () => expect((await db.pictures.toCollection().primaryKeys()).sort()).toEqual([display, thumb].sort()), { timeout: 8_000, interval: 200 });
  });

  it('asks nothing without a series', async () => {
    const { calls } = stubFetch({});
    renderWithDb(<PicturesKeeper />);
    await new Promise((r) => setTimeout(r, 1_800));
    expect(calls).toEqual([]);
  });
});
