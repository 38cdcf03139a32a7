/**
 * The series as the companion reads it (packages/companion SeriesMaterial), from the stored live
 * rows, and its findings kept until the series changes: a suggestion request then costs a handful
 * of indexed max(rev) look-ups instead of reading and indexing the whole series (the bench's
 * series has 2,000 entries). The stamp is read from the database, so the cache stays right with
 * several server processes.
 */
import type { Kysely } from 'kysely';
import { type SeriesFindings, type SeriesMaterial, seriesFindings } from '@chronicler/companion';
import { runPrepared } from '../db/prepared.ts';
import type { DB } from '../db/tables.ts';
import { type Db, findRow, listLive } from '../entities/queries.ts';

export async function loadSeriesMaterial(db: Db, seriesId: string): Promise<SeriesMaterial> {
  const [series, books, chapters, characters, relationships, locations, events] = await Promise.all([
    findRow(db, 'series', seriesId),
    listLive(db, 'books', 'seriesId', seriesId),
    listLive(db, 'chapters', 'seriesId', seriesId),
    listLive(db, 'characters', 'seriesId', seriesId),
    listLive(db, 'characterRelationships', 'seriesId', seriesId),
    listLive(db, 'locations', 'seriesId', seriesId),
    listLive(db, 'timelineEvents', 'seriesId', seriesId),
  ]);
  return { seriesTitle: series?.title ?? '', books, chapters, characters, relationships, locations, events };
}

const STORY_TABLES = ['books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents'] as const;

/**
 * The latest rev of anything the companion reads in the series: every write (deletes too, which
 * are soft and stamp a rev) raises it.
 */
async function seriesStamp(db: Kysely<DB>, seriesId: string): Promise<string> {
  // One statement: the series row's rev and max(rev) of each story table, each a step down its
  // (series_id, rev) index.
  const rows = await runPrepared(
    db,
    'companion series stamp',
    (q, v: { seriesId: string }) => {
      const [head, ...rest] = STORY_TABLES.map((table) => q.selectFrom(table).select((eb) => eb.fn.max('rev').as('rev')).where('seriesId', '=', v.seriesId));
      return rest.reduce((all, next) => all.unionAll(next), head!).unionAll(q.selectFrom('series').select('rev').where('id', '=', v.seriesId));
    },
    { seriesId },
  );
  // Revs come from one global sequence, so any change in the series gives a new largest one.
  return String(Math.max(0, ...rows.map((r) => (r as { rev: number | null }).rev ?? 0)));
}

const MAX_CACHED = 64;
type Cached = { stamp: string; material: SeriesMaterial; findings: Map<string, SeriesFindings & { safe: SeriesMaterial }> };

/** The series material and its per-book findings, remembered per series until the series changes. */
export class CompanionCache {
  private readonly entries = new Map<string, Cached>();

  async get(db: Kysely<DB>, seriesId: string, bookId: string | null): Promise<{ material: SeriesMaterial; findings: SeriesFindings & { safe: SeriesMaterial } }> {
    const stamp = await seriesStamp(db, seriesId);
    let entry = this.entries.get(seriesId);
    if (!entry || entry.stamp !== stamp) {
      entry = { stamp, material: await loadSeriesMaterial(db, seriesId), findings: new Map() };
    }
    // Most recently used last; the oldest goes first.
    this.entries.delete(seriesId);
    this.entries.set(seriesId, entry);
    if (this.entries.size > MAX_CACHED) this.entries.delete(this.entries.keys().next().value!);
    const key = bookId ?? '';
    let findings = entry.findings.get(key);
    if (!findings) {
      findings = seriesFindings(entry.material, bookId);
      entry.findings.set(key, findings);
    }
    return { material: entry.material, findings };
  }
}

/** The contents of the series' stored suggestions (what is not suggested again while something new remains). */
export async function previousSuggestions(db: Kysely<DB>, seriesId: string): Promise<string[]> {
  const rows = await runPrepared(
    db,
    'companion previous suggestions',
    (q, v: { seriesId: string }) => q.selectFrom('aiSuggestions').select('content').where('seriesId', '=', v.seriesId).where('deletedAt', 'is', null),
    { seriesId },
  );
  return rows.map((r) => (r as { content: string }).content);
}
