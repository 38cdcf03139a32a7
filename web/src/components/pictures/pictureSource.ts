/**
 * What an `<img>` shows for a picture field (docs/decisions/0023-pictures-on-the-device.md): an
 * https URL as it is, or for a `media:` reference an object URL of the bytes on the device — live
 * from Dexie, so a picture chosen a moment ago (offline too) shows everywhere at once. A picture the
 * device lacks is fetched once a screen shows it; meanwhile the other size stands in, or nothing
 * (the caller's placeholder). Object URLs are shared per picture and revoked when no one shows it.
 */
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  type ChroniclerDb,
  type PictureFetcher,
  type PictureRow,
  createPictureFetcher,
  parsePictureRef,
  touchPictures,
} from '@chronicler/sync-client';
import { useOptionalSync } from '@/lib/sync';

export type PictureVariant = 'display' | 'thumb';

const fetchers = new WeakMap<ChroniclerDb, PictureFetcher>();

/** The device's one fetcher per database (same origin, the session's cookie). */
export function pictureFetcherFor(db: ChroniclerDb): PictureFetcher {
  let fetcher = fetchers.get(db);
  if (!fetcher) {
    fetcher = createPictureFetcher({ db, fetch: (url, init) => fetch(url, init), baseUrl: '' });
    fetchers.set(db, fetcher);
  }
  return fetcher;
}

interface SharedUrl {
  url: string;
  users: number;
}
const urls = new Map<string, SharedUrl>();
/** How long an object URL outlives its last user (a list re-rendering releases and takes it again). */
const REVOKE_DELAY_MS = 2_000;

export function acquirePictureUrl(sha256: string, blob: Blob): string {
  const shared = urls.get(sha256);
  if (shared) {
    shared.users += 1;
    return shared.url;
  }
  const url = URL.createObjectURL(blob);
  urls.set(sha256, { url, users: 1 });
  return url;
}

export function releasePictureUrl(sha256: string): void {
  const shared = urls.get(sha256);
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  setTimeout(() => {
    if (shared.users > 0 || urls.get(sha256) !== shared) return;
    urls.delete(sha256);
    URL.revokeObjectURL(shared.url);
  }, REVOKE_DELAY_MS);
}

/** Pictures already marked as shown in this session: the LRU order needs one write per picture, not one per render. */
const touched = new Set<string>();

export type PictureStatus = 'none' | 'url' | 'ready' | 'loading';

export interface PictureSource {
  src: string | null;
  status: PictureStatus;
}

/**
 * The `src` for a picture field: `variant` 'thumb' in lists and nodes, 'display' where it is shown
 * large. `seriesId` is the series the row belongs to (the picture's route on the server).
 */
export function usePictureSource(value: string | null | undefined, seriesId: string | null | undefined, variant: PictureVariant = 'thumb'): PictureSource {
  const db = useOptionalSync()?.db ?? null;
  const ref = parsePictureRef(value);
  const wanted = ref ? (variant === 'thumb' ? ref.thumb : ref.display) : null;
  const other = ref ? (variant === 'thumb' ? ref.display : ref.thumb) : null;
  const rows = useLiveQuery(
    async (): Promise<(PictureRow | undefined)[]> => (db && wanted && other ? db.pictures.bulkGet([wanted, other]) : []),
    [db, wanted, other],
  );
  const shown = rows?.[0] ?? rows?.[1] ?? null;
  const missingWanted = rows !== undefined && wanted !== null && rows[0] === undefined;

  const [src, setSrc] = useState<{ sha: string; url: string } | null>(null);
  const shownSha = shown?.sha256 ?? null;
  const shownBlob = shown?.blob ?? null;
  useEffect(() => {
    if (!shownSha || !shownBlob) {
      setSrc(null);
      return;
    }
    setSrc({ sha: shownSha, url: acquirePictureUrl(shownSha, shownBlob) });
    if (db && !touched.has(shownSha)) {
      touched.add(shownSha);
      void touchPictures(db, [shownSha]).catch(() => undefined);
    }
    return () => releasePictureUrl(shownSha);
  }, [db, shownSha, shownBlob]);

  useEffect(() => {
    if (!missingWanted || !db || !seriesId || !wanted) return;
    void pictureFetcherFor(db).fetchPicture(seriesId, wanted).catch(() => undefined);
  }, [missingWanted, db, seriesId, wanted]);

  if (!value) return { src: null, status: 'none' };
  // A URL (typed by hand, or a bundled placeholder's path) is shown as it is, as before pictures.
  if (!ref) return { src: value, status: 'url' };
  if (src && src.sha === shownSha) return { src: src.url, status: 'ready' };
  return { src: null, status: 'loading' };
}

export type PictureUploadState =
  | { kind: 'none' }
  | { kind: 'on-device' }
  | { kind: 'uploaded' }
  | { kind: 'refused'; status: number; message: string };

/** Where a field's picture stands: only on this device (queued), uploaded, or refused by the server. */
export function usePictureUploadState(value: string | null | undefined): PictureUploadState {
  const db = useOptionalSync()?.db ?? null;
  const ref = parsePictureRef(value);
  const rows = useLiveQuery(
    async (): Promise<(PictureRow | undefined)[]> => (db && ref ? db.pictures.bulkGet([ref.display, ref.thumb]) : []),
    [db, ref?.display, ref?.thumb],
  );
  const present = (rows ?? []).filter((r): r is PictureRow => r !== undefined);
  const refused = present.find((r) => r.refused);
  if (refused?.refused) return { kind: 'refused', ...refused.refused };
  if (present.some((r) => r.uploaded === 0)) return { kind: 'on-device' };
  return present.length > 0 ? { kind: 'uploaded' } : { kind: 'none' };
}
