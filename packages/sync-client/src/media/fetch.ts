/**
 * Bringing pictures to the device (docs/decisions/0023-pictures-on-the-device.md): a picture a
 * field names but the device lacks is fetched (`GET /api/series/:seriesId/media/:sha256`) when a
 * screen shows it, and every picture of the open series after a sync, so they are there offline.
 * The fetched bytes are checked against their name (a SHA-256 that does not match is dropped) and
 * kept within the cache budget. Any tab may fetch; one request per picture at a time.
 */
import type { ChroniclerDb } from '../db.ts';
import type { FetchLike } from '../engine/platform.ts';
import { type UploadImageType, picturePath, sniffImageType } from './picture-format.ts';
import { PICTURE_CACHE_BUDGET_BYTES, enforcePictureBudget, referencedPictures, sha256Hex, storeFetchedPicture } from './store.ts';

export type PictureFetchOutcome = 'stored' | 'present' | 'missing' | 'failed';

export interface PictureFetcher {
  /** Brings one picture of a series to the device, unless it is there already. */
  fetchPicture(seriesId: string, sha256: string): Promise<PictureFetchOutcome>;
  /** Brings every picture the series' rows name (thumbnails first), then keeps the cache within budget. */
  prefetchSeries(seriesId: string): Promise<{ stored: number; failed: number }>;
}

export interface PictureFetcherOptions {
  db: ChroniclerDb;
  fetch: FetchLike;
  /** '' for the same origin. */
  baseUrl: string;
  budgetBytes?: number;
  now?: () => number;
}

export function createPictureFetcher({ db, fetch, baseUrl, budgetBytes = PICTURE_CACHE_BUDGET_BYTES, now = Date.now }: PictureFetcherOptions): PictureFetcher {
  const base = baseUrl.replace(/\/$/, '');
  const inFlight = new Map<string, Promise<PictureFetchOutcome>>();

  async function load(seriesId: string, sha256: string): Promise<PictureFetchOutcome> {
    if (await db.pictures.get(sha256)) return 'present';
    let response: Response;
    try {
      response = await fetch(`${base}${picturePath(seriesId, sha256)}`, { method: 'GET', credentials: 'include' });
    } catch {
      return 'failed';
    }
    if (response.status === 404 || response.status === 403) return 'missing';
    if (!response.ok) return 'failed';
    const bytes = new Uint8Array(await response.arrayBuffer());
    const type = sniffImageType(bytes);
    // Only what the device itself would upload, and only the bytes the name promises.
    if ((type !== 'image/webp' && type !== 'image/jpeg') || (await sha256Hex(bytes)) !== sha256) return 'failed';
    await storeFetchedPicture(db, { sha256, seriesId, type: type as UploadImageType, blob: new Blob([bytes], { type }) }, now());
    return 'stored';
  }

  function fetchPicture(seriesId: string, sha256: string): Promise<PictureFetchOutcome> {
    const running = inFlight.get(sha256);
    if (running) return running;
    const job = load(seriesId, sha256).finally(() => inFlight.delete(sha256));
    inFlight.set(sha256, job);
    return job;
  }

  async function prefetchSeries(seriesId: string): Promise<{ stored: number; failed: number }> {
    const refs = await referencedPictures(db, seriesId);
    const wanted = [...new Set([...refs.map((r) => r.thumb), ...refs.map((r) => r.display)])];
    const present = new Set((await db.pictures.bulkGet(wanted)).flatMap((r) => (r ? [r.sha256] : [])));
    let stored = 0;
    let failed = 0;
    for (const sha of wanted) {
      if (present.has(sha)) continue;
      const outcome = await fetchPicture(seriesId, sha);
      if (outcome === 'stored') stored += 1;
      else if (outcome === 'failed') {
        failed += 1;
        break; // offline or the server is struggling: the next sync tries again
      }
    }
    if (stored > 0) await enforcePictureBudget(db, budgetBytes);
    return { stored, failed };
  }

  return { fetchPicture, prefetchSeries };
}
