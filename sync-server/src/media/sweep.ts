/**
 * Pictures nobody uses any more go (docs/decisions/0022-pictures-on-the-server.md): a series'
 * picture that no live field of the series names (MEDIA_FIELDS: the cover, portraits, place
 * pictures) is removed from the series a day after its last upload, and every picture of a
 * deleted series at once; bytes no series uses any more go with them. A sweep, not a step of the
 * delete: the device uploads a picture before the write that names it reaches the server (offline,
 * that can be hours), a replaced cover or a deleted portrait is found the same way, and the story
 * routes need to know nothing of pictures. The allowance stops counting a deleted series' pictures
 * at once (store.ts usedBytes).
 *
 * Each step is its own write through the group commit, so on PostgreSQL it is serialised with
 * uploads (which check the allowance and add a use in one write).
 */
import type { Kysely } from 'kysely';
import { ENTITY_KINDS, type EntityKind } from '@chronicler/schema';
import { MEDIA_FIELDS, mediaHashesIn } from '@chronicler/schema/media';
import type { OpenedDatabase } from '../db/database.ts';
import type { DB } from '../db/tables.ts';
import { ENTITIES } from '../entities/registry.ts';
import { deleteUnusedContent, hasUnusedContent } from './store.ts';

/** How long a picture no field names is kept after its last upload. */
export const UNUSED_PICTURE_GRACE_MS = 24 * 60 * 60 * 1000;

/** How often the sweep runs (and once at start). */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Series swept per write: a sweep after a long pause never holds the writer for long. */
const SERIES_PER_WRITE = 50;

/** Every picture the live rows of `seriesId` name. */
export async function picturesNamedIn(db: Kysely<DB>, seriesId: string): Promise<Set<string>> {
  const named = new Set<string>();
  for (const { kind, field } of MEDIA_FIELDS) {
    if (!(ENTITY_KINDS as readonly string[]).includes(kind)) continue;
    const table = ENTITIES[kind as EntityKind].table as 'characters';
    const rows = (await db
      .selectFrom(table)
      .select(`${field} as value` as 'avatarUrl')
      .where(kind === 'series' ? 'id' : 'seriesId', '=', seriesId)
      .where('deletedAt', 'is', null)
      .execute()) as unknown as Array<{ value: string | null }>;
    for (const row of rows) for (const hash of mediaHashesIn(row.value)) named.add(hash);
  }
  return named;
}

/** The series' pictures last uploaded before `cutoff` that no live field of it names. */
async function unusedIn(db: Kysely<DB>, seriesId: string, cutoff: string): Promise<string[]> {
  const stale = await db.selectFrom('seriesMedia').select('sha256').where('seriesId', '=', seriesId).where('touchedAt', '<', cutoff).execute();
  if (stale.length === 0) return [];
  const named = await picturesNamedIn(db, seriesId);
  return stale.map((r) => r.sha256).filter((hash) => !named.has(hash));
}

export interface SweepResult {
  /** Series' uses of a picture removed. */
  uses: number;
  /** Pictures whose bytes were removed. */
  pictures: number;
}

export async function sweepUnusedPictures(database: OpenedDatabase, now: number): Promise<SweepResult> {
  const { db, groupCommit } = database;
  const result: SweepResult = { uses: 0, pictures: 0 };
  const cutoff = new Date(now - UNUSED_PICTURE_GRACE_MS).toISOString();

  // Reads first: a sweep that finds nothing writes nothing (it runs at every start).
  const deletedSeries = (q: Kysely<DB>) => q.selectFrom('series').select('id').where('deletedAt', 'is not', null);
  const orphaned = await db.selectFrom('seriesMedia').select('seriesId').where('seriesId', 'in', deletedSeries(db)).limit(1).executeTakeFirst();
  if (orphaned) {
    result.uses += await groupCommit.run(async (trx) => {
      const gone = await trx.deleteFrom('seriesMedia').where('seriesId', 'in', deletedSeries(trx)).executeTakeFirst();
      return Number(gone.numDeletedRows);
    });
  }

  const due = await db.selectFrom('seriesMedia').select('seriesId').distinct().where('touchedAt', '<', cutoff).execute();
  for (let at = 0; at < due.length; at += SERIES_PER_WRITE) {
    // Looked for with reads; written (and looked for again, inside the write) only where found.
    const found: string[] = [];
    for (const { seriesId } of due.slice(at, at + SERIES_PER_WRITE)) if ((await unusedIn(db, seriesId, cutoff)).length > 0) found.push(seriesId);
    if (found.length === 0) continue;
    result.uses += await groupCommit.run(async (trx) => {
      let removed = 0;
      for (const seriesId of found) {
        const unused = await unusedIn(trx, seriesId, cutoff);
        if (unused.length === 0) continue;
        const gone = await trx.deleteFrom('seriesMedia').where('seriesId', '=', seriesId).where('sha256', 'in', unused).executeTakeFirst();
        removed += Number(gone.numDeletedRows);
      }
      return removed;
    });
  }

  if (await hasUnusedContent(db)) result.pictures = await groupCommit.run((trx) => deleteUnusedContent(trx));
  return result;
}
