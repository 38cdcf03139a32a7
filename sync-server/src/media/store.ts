/**
 * Pictures in the database (docs/decisions/0022-pictures-on-the-server.md): the bytes once per
 * content hash in `media_content`, the series that use each in `series_media`. Portable Kysely
 * (db/README.md): the same on SQLite (blob) and PostgreSQL (bytea).
 *
 * The allowance counts an owner's distinct pictures: every picture some live series of theirs uses,
 * once however many of those series use it.
 */
import type { Kysely } from 'kysely';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_KEYS } from '../db/prepared-keys.ts';
import type { DB } from '../db/tables.ts';

type Db = Kysely<DB>;

export interface PictureMeta {
  sha256: string;
  type: string;
  bytes: number;
  width: number;
  height: number;
}

/**
 * The picture `sha256` if `seriesId` uses it, without its bytes; null otherwise. A prepared shape,
 * answered from the read cache while nothing was written (every picture served asks it).
 */
export async function findSeriesPicture(db: Db, seriesId: string, sha256: string): Promise<PictureMeta | null> {
  const [row] = await runPrepared(
    db,
    PREPARED_KEYS.mediaSeriesPicture,
    (q, v: { seriesId: string; sha256: string }) =>
      q
        .selectFrom('seriesMedia')
        .innerJoin('mediaContent', 'mediaContent.sha256', 'seriesMedia.sha256')
        .select(['mediaContent.sha256', 'mediaContent.type', 'mediaContent.bytes', 'mediaContent.width', 'mediaContent.height'])
        .where('seriesMedia.seriesId', '=', v.seriesId)
        .where('seriesMedia.sha256', '=', v.sha256),
    { seriesId, sha256 },
    { cached: true },
  );
  return (row as PictureMeta | undefined) ?? null;
}

export async function readPictureBytes(db: Db, sha256: string): Promise<Uint8Array | null> {
  const row = await db.selectFrom('mediaContent').select('data').where('sha256', '=', sha256).executeTakeFirst();
  return row ? row.data : null;
}

/** The live series `ownerId` owns that use a picture. */
function ownedPictures(db: Db, ownerId: string) {
  return db
    .selectFrom('seriesMedia')
    .innerJoin('series', 'series.id', 'seriesMedia.seriesId')
    .select('seriesMedia.sha256')
    .where('series.ownerId', '=', ownerId)
    .where('series.deletedAt', 'is', null);
}

/** Bytes of every distinct picture the owner's live series use. */
export async function usedBytes(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('mediaContent')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('used'))
    .where('sha256', 'in', ownedPictures(db, ownerId))
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

/** Whether one of the owner's live series uses the picture already (then another use costs nothing). */
export async function ownerHasPicture(db: Db, ownerId: string, sha256: string): Promise<boolean> {
  const row = await ownedPictures(db, ownerId).where('seriesMedia.sha256', '=', sha256).limit(1).executeTakeFirst();
  return row !== undefined;
}

export interface NewPicture extends PictureMeta {
  data: Uint8Array;
}

/**
 * Keeps the picture for the series: its bytes if no series had them, and the series' use of it
 * (refreshed when it had it already). Answers whether the series had it before.
 */
export async function keepSeriesPicture(db: Db, seriesId: string, picture: NewPicture, uploadedBy: string, now: string): Promise<{ existed: boolean }> {
  const { data, ...meta } = picture;
  await db
    .insertInto('mediaContent')
    .values({ ...meta, data, createdAt: now })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
  const existing = await db.selectFrom('seriesMedia').select('sha256').where('seriesId', '=', seriesId).where('sha256', '=', picture.sha256).executeTakeFirst();
  if (existing) {
    await db.updateTable('seriesMedia').set({ touchedAt: now }).where('seriesId', '=', seriesId).where('sha256', '=', picture.sha256).execute();
    return { existed: true };
  }
  await db.insertInto('seriesMedia').values({ seriesId, sha256: picture.sha256, uploadedBy, touchedAt: now }).execute();
  return { existed: false };
}

/** Whether some bytes are used by no series (the sweep's look before it writes). */
export async function hasUnusedContent(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('mediaContent')
    .select('sha256')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('seriesMedia').select('seriesMedia.sha256').whereRef('seriesMedia.sha256', '=', 'mediaContent.sha256'))))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Bytes no series uses any more go. */
export async function deleteUnusedContent(db: Db, hashes?: readonly string[]): Promise<number> {
  if (hashes && hashes.length === 0) return 0;
  let query = db.deleteFrom('mediaContent').where((eb) => eb.not(eb.exists(eb.selectFrom('seriesMedia').select('seriesMedia.sha256').whereRef('seriesMedia.sha256', '=', 'mediaContent.sha256'))));
  if (hashes) query = query.where('sha256', 'in', hashes);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The series stops using the picture; its bytes go when no series uses them. Answers whether it used it. */
export async function removeSeriesPicture(db: Db, seriesId: string, sha256: string): Promise<boolean> {
  const result = await db.deleteFrom('seriesMedia').where('seriesId', '=', seriesId).where('sha256', '=', sha256).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return false;
  await deleteUnusedContent(db, [sha256]);
  return true;
}

/** Every picture the series use, with the series (a backup's list; the bytes are read apart). */
export async function picturesOfSeries(db: Db, seriesIds: readonly string[]): Promise<Array<PictureMeta & { seriesId: string }>> {
  if (seriesIds.length === 0) return [];
  return db
    .selectFrom('seriesMedia')
    .innerJoin('mediaContent', 'mediaContent.sha256', 'seriesMedia.sha256')
    .select(['seriesMedia.seriesId', 'mediaContent.sha256', 'mediaContent.type', 'mediaContent.bytes', 'mediaContent.width', 'mediaContent.height'])
    .where('seriesMedia.seriesId', 'in', seriesIds)
    .orderBy('seriesMedia.seriesId')
    .orderBy('seriesMedia.touchedAt')
    .orderBy('seriesMedia.sha256')
    .execute();
}
