/**
 * Pictures on the device (docs/decisions/0023-pictures-on-the-device.md): the Dexie table
 * `pictures` (version 12) holds the bytes of every display size and thumbnail this device made or
 * fetched, keyed by their SHA-256. A row not yet uploaded is the upload queue (engine/pictures.ts);
 * uploaded rows are a cache within a per-device budget, least recently used evicted first — never a
 * row that has not been uploaded, which is the only copy.
 */
import type { ChroniclerDb } from '../db.ts';
import { type PictureRef, type UploadImageType, parsePictureRef } from './picture-format.ts';

export interface PictureRefusal {
  status: number;
  message: string;
}

export interface PictureRow {
  sha256: string;
  blob: Blob;
  type: UploadImageType;
  bytes: number;
  width: number;
  height: number;
  /** The series it was first chosen for or fetched in. */
  seriesId: string;
  /**
   * Every series whose rows may name it here. The server keeps a picture per series (its route
   * is the series'), so the same bytes chosen in a second series are uploaded there too.
   */
  inSeries: string[];
  /** The series the server does not have it for yet, in the order they are uploaded to. */
  uploadTo: string[];
  /** 0: `uploadTo` is not empty (queued; the only copy); 1: the server has it for every series. (A number: IndexedDB indexes no booleans.) */
  uploaded: 0 | 1;
  /** The server refused it for good (413, 403, 415…): shown to the author, not retried. */
  refused?: PictureRefusal;
  lastUsedAt: number;
  createdAt: number;
  /** Upload attempts that failed on the way (network, busy server), for the backoff. */
  attempts: number;
  /** Epoch ms before which the upload is not tried again. */
  nextAttemptAt: number;
}

/** The per-device cache budget for pictures the server has (docs/decisions/0023-pictures-on-the-device.md). */
export const PICTURE_CACHE_BUDGET_BYTES = 200 * 1024 * 1024;
/** A picture no field names is kept this long (the author may still be in the dialog that chose it). */
export const UNREFERENCED_GRACE_MS = 60 * 60 * 1000;

/** Lowercase hex SHA-256 of the bytes (Web Crypto, in the browser and in Node). */
export async function sha256Hex(data: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface NewPicture {
  blob: Blob;
  type: UploadImageType;
  width: number;
  height: number;
  seriesId: string;
}

/**
 * Stores a picture made on this device and answers its SHA-256. Storing the same bytes again only
 * marks them used: content addressing makes the second copy the first.
 */
export async function storeLocalPicture(db: ChroniclerDb, picture: NewPicture, now = Date.now()): Promise<string> {
  const sha256 = await sha256Hex(await picture.blob.arrayBuffer());
  await db.transaction('rw', db.pictures, async () => {
    const existing = await db.pictures.get(sha256);
    if (existing) {
      const changes: Partial<PictureRow> = { lastUsedAt: now };
      // A copy refused before may be tried again now (the plan may have changed).
      if (existing.refused) Object.assign(changes, { refused: undefined, attempts: 0, nextAttemptAt: 0 });
      if (!existing.inSeries.includes(picture.seriesId)) {
        Object.assign(changes, { inSeries: [...existing.inSeries, picture.seriesId], uploadTo: [...existing.uploadTo, picture.seriesId], uploaded: 0 });
      }
      await db.pictures.update(sha256, changes);
      return;
    }
    await db.pictures.add({
      sha256,
      blob: picture.blob,
      type: picture.type,
      bytes: picture.blob.size,
      width: picture.width,
      height: picture.height,
      seriesId: picture.seriesId,
      inSeries: [picture.seriesId],
      uploadTo: [picture.seriesId],
      uploaded: 0,
      lastUsedAt: now,
      createdAt: now,
      attempts: 0,
      nextAttemptAt: 0,
    });
  });
  return sha256;
}

/** Stores bytes the server sent (already uploaded: evictable). */
export async function storeFetchedPicture(
  db: ChroniclerDb,
  row: Pick<PictureRow, 'sha256' | 'blob' | 'type' | 'seriesId'> & Partial<Pick<PictureRow, 'width' | 'height'>>,
  now = Date.now(),
): Promise<void> {
  await db.transaction('rw', db.pictures, async () => {
    const existing = await db.pictures.get(row.sha256);
    if (existing) {
      // The server has it for this series too: nothing to upload there.
      if (!existing.inSeries.includes(row.seriesId)) {
        const uploadTo = existing.uploadTo.filter((s) => s !== row.seriesId);
        await db.pictures.update(row.sha256, { inSeries: [...existing.inSeries, row.seriesId], uploadTo, uploaded: uploadTo.length === 0 ? 1 : 0 });
      }
      return;
    }
    await db.pictures.add({
      width: 0,
      height: 0,
      ...row,
      inSeries: [row.seriesId],
      uploadTo: [],
      bytes: row.blob.size,
      uploaded: 1,
      lastUsedAt: now,
      createdAt: now,
      attempts: 0,
      nextAttemptAt: 0,
    });
  });
}

/** Marks pictures as just shown (the LRU order). Cheap to call on every render of a picture. */
export async function touchPictures(db: ChroniclerDb, shas: readonly string[], now = Date.now()): Promise<void> {
  if (shas.length === 0) return;
  await db.pictures.where('sha256').anyOf(shas as string[]).modify({ lastUsedAt: now });
}

export type PictureEvictionCandidate = Pick<PictureRow, 'sha256' | 'bytes' | 'uploaded' | 'lastUsedAt'>;

/**
 * The pictures to evict to bring the cache within `budgetBytes`: uploaded ones, least recently used
 * first. Pictures not yet uploaded are never chosen (they are the only copy), even when they alone
 * are over the budget.
 */
export function chooseEvictions(rows: readonly PictureEvictionCandidate[], budgetBytes: number): string[] {
  let total = rows.reduce((sum, r) => sum + r.bytes, 0);
  if (total <= budgetBytes) return [];
  const evictable = rows.filter((r) => r.uploaded === 1).sort((a, b) => a.lastUsedAt - b.lastUsedAt || a.sha256.localeCompare(b.sha256));
  const out: string[] = [];
  for (const r of evictable) {
    if (total <= budgetBytes) break;
    out.push(r.sha256);
    total -= r.bytes;
  }
  return out;
}

/** Evicts least recently used uploaded pictures past the budget; answers how many went. */
export async function enforcePictureBudget(db: ChroniclerDb, budgetBytes = PICTURE_CACHE_BUDGET_BYTES): Promise<number> {
  return db.transaction('rw', db.pictures, async () => {
    const rows: PictureEvictionCandidate[] = [];
    // Reads the small fields only: the blobs stay where they are.
    await db.pictures.each((r) => rows.push({ sha256: r.sha256, bytes: r.bytes, uploaded: r.uploaded, lastUsedAt: r.lastUsedAt }));
    const evict = chooseEvictions(rows, budgetBytes);
    if (evict.length > 0) await db.pictures.bulkDelete(evict);
    return evict.length;
  });
}

/** The entity fields that may hold a picture reference (an https URL otherwise). */
export const PICTURE_FIELDS = [
  { table: 'series', field: 'coverImage' },
  { table: 'characters', field: 'avatarUrl' },
  { table: 'locations', field: 'image' },
] as const;

/** Every picture reference the device's rows hold, of one series or of all. */
export async function referencedPictures(db: ChroniclerDb, seriesId?: string): Promise<PictureRef[]> {
  const refs: PictureRef[] = [];
  const add = (value: unknown) => {
    const ref = typeof value === 'string' ? parsePictureRef(value) : null;
    if (ref) refs.push(ref);
  };
  if (seriesId === undefined) {
    await db.series.each((s) => add(s.coverImage));
    await db.characters.each((c) => add(c.avatarUrl));
    await db.locations.each((l) => add(l.image));
  } else {
    add((await db.series.get(seriesId))?.coverImage);
    await db.characters.where('seriesId').equals(seriesId).each((c) => add(c.avatarUrl));
    await db.locations.where('seriesId').equals(seriesId).each((l) => add(l.image));
  }
  return refs;
}

const shasOf = (refs: readonly PictureRef[]) => new Set(refs.flatMap((r) => [r.display, r.thumb]));

/**
 * Removes pictures no row on the device names any more: at once for the shas given (the author
 * deleted their entity or replaced its picture), and after the grace period for any other (a row
 * deleted on another device; a picture chosen and never saved).
 */
export async function removeUnreferencedPictures(
  db: ChroniclerDb,
  { now = Date.now(), released = [] as readonly string[], graceMs = UNREFERENCED_GRACE_MS } = {},
): Promise<number> {
  const named = shasOf(await referencedPictures(db));
  const releasedSet = new Set(released);
  return db.transaction('rw', db.pictures, async () => {
    const gone: string[] = [];
    await db.pictures.each((r) => {
      if (named.has(r.sha256)) return;
      if (releasedSet.has(r.sha256) || r.lastUsedAt < now - graceMs) gone.push(r.sha256);
    });
    if (gone.length > 0) await db.pictures.bulkDelete(gone);
    return gone.length;
  });
}

/** The shas a field value names (display and thumbnail), none for a URL. */
export function picturesOfField(value: string | null | undefined): string[] {
  const ref = parsePictureRef(value);
  return ref ? [ref.display, ref.thumb] : [];
}

/**
 * After the author deleted a row or replaced its picture: removes the pictures the old values
 * named, unless another row on the device still names them.
 */
export function releasePictures(db: ChroniclerDb, values: readonly (string | null | undefined)[]): Promise<number> {
  const released = values.flatMap(picturesOfField);
  return released.length === 0 ? Promise.resolve(0) : removeUnreferencedPictures(db, { released });
}

/** Every picture a series' rows name (read before the series is deleted, released after). */
export async function picturesOfSeries(db: ChroniclerDb, seriesId: string): Promise<string[]> {
  return [...shasOf(await referencedPictures(db, seriesId))];
}
