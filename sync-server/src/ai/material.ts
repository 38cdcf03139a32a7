/**
 * The series as the companion reads it (packages/companion SeriesMaterial), from the stored live
 * rows, and its findings kept until the series changes: a suggestion request then costs a handful
 * of indexed max(rev) look-ups instead of reading and indexing the whole series (the bench's
 * series has 2,000 entries). The stamp is read from the database, so the cache stays right with
 * several server processes.
 */
import type { Kysely } from 'kysely';
import { type SeriesFindings, type SeriesMaterial, seriesFindings } from '@chronicler/companion';
import { isTrashed } from '@chronicler/schema';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_KEYS } from '../db/prepared-keys.ts';
import { abandonedTransactions } from '../db/dialect.ts';
import type { DB } from '../db/tables.ts';
import { type Db, findRow, listLive } from '../entities/queries.ts';

export async function loadSeriesMaterial(db: Db, seriesId: string): Promise<SeriesMaterial> {
  const [series, books, chapters, characters, relationships, locations, events, worldEntries] = await Promise.all([
    findRow(db, 'series', seriesId),
    listLive(db, 'books', 'seriesId', seriesId),
    listLive(db, 'chapters', 'seriesId', seriesId),
    listLive(db, 'characters', 'seriesId', seriesId),
    listLive(db, 'characterRelationships', 'seriesId', seriesId),
    listLive(db, 'locations', 'seriesId', seriesId),
    listLive(db, 'timelineEvents', 'seriesId', seriesId),
    listLive(db, 'worldEntries', 'seriesId', seriesId),
  ]);
  // What is in the series' Trash is not the story (docs/decisions/0014-trash-and-restructure.md).
  const shownBooks = books.filter((b) => !isTrashed(b));
  const shown = new Set(shownBooks.map((b) => b.id));
  const shownChapters = chapters.filter((c) => !isTrashed(c) && shown.has(c.bookId));
  return { seriesTitle: series?.title ?? '', books: shownBooks, chapters: shownChapters, characters, relationships, locations, events, worldEntries };
}

const STORY_TABLES = ['books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents', 'worldEntries'] as const;

interface Stamps {
  /** The latest rev of anything the companion reads in the series (the series row and its story rows). */
  story: number;
  /** The latest rev of the series' stored suggestions. */
  suggestions: number;
}

/**
 * One statement, each part a step down a (series_id, rev) index: every write (deletes too, which
 * are soft and stamp a rev) raises them, and revs come from one global sequence, so any change in
 * the series gives a new largest one.
 */
async function readStamps(db: Kysely<DB>, seriesId: string): Promise<Stamps> {
  const [row] = await runPrepared(
    db,
    PREPARED_KEYS.companionSeriesStamps,
    (q, v: { seriesId: string }) =>
      q.selectNoFrom((eb) => [
        ...STORY_TABLES.map((table) => eb.selectFrom(table).select((e) => e.fn.max('rev').as('rev')).where('seriesId', '=', v.seriesId).as(table)),
        eb.selectFrom('series').select('rev').where('id', '=', v.seriesId).as('series'),
        eb.selectFrom('aiSuggestions').select((e) => e.fn.max('rev').as('rev')).where('seriesId', '=', v.seriesId).as('aiSuggestions'),
      ]),
    { seriesId },
  );
  const revs = (row ?? {}) as Record<string, number | null>;
  return { story: Math.max(0, ...[...STORY_TABLES, 'series'].map((t) => revs[t] ?? 0)), suggestions: revs.aiSuggestions ?? 0 };
}

async function liveSuggestionContents(db: Kysely<DB>, seriesId: string): Promise<Set<string>> {
  const rows = await runPrepared(
    db,
    PREPARED_KEYS.companionPreviousSuggestions,
    (q, v: { seriesId: string }) => q.selectFrom('aiSuggestions').select('content').where('seriesId', '=', v.seriesId).where('deletedAt', 'is', null),
    { seriesId },
  );
  return new Set(rows.map((r) => (r as { content: string }).content));
}

const MAX_CACHED = 64;

type Findings = SeriesFindings & { safe: SeriesMaterial };

/** What the companion keeps of one series, each part under the stamp it was read at. */
interface CachedSeries {
  story: number;
  material: SeriesMaterial;
  /** Per chosen book ('' for none): the rules' findings up to it. */
  findings: Map<string, Findings>;
  suggestions: number;
  /** The contents of the stored suggestions: not suggested again while something new remains. */
  previous: Set<string>;
}

/** A series as the suggestion route reads it: from memory while nothing in it changed. */
export interface CompanionSeries {
  material: SeriesMaterial;
  previous: ReadonlySet<string>;
  /** The findings up to `bookId` (a live book of the series: check against `material.books` first). */
  findings(bookId: string | null): Findings;
  /**
   * Adds the suggestion just stored at `rev`, in the transaction this view was read in, to the
   * kept list in place of reading the list again (nothing else can have written in between).
   */
  remember(content: string, rev: number): void;
}

/**
 * The series material, its per-book findings and its earlier suggestions, remembered per series
 * until the series changes: a suggestion request then costs one indexed stamp statement instead of
 * reading and indexing the whole series (the bench's series has 2,000 entries) and every earlier
 * suggestion (a number that only grows). The stamps are read from the database, so the cache stays
 * right with several server processes.
 *
 * It is read inside write transactions (the suggestion route's), so it may hold what a transaction
 * read or wrote before that transaction committed. A transaction that then rolls back gives its
 * revs back to the next write, under which other content could be stored: so once any write
 * transaction has been abandoned (db/dialect.ts abandonedTransactions), everything kept is dropped.
 */
export class CompanionCache {
  private readonly entries = new Map<string, CachedSeries>();
  private abandoned = abandonedTransactions();

  async get(db: Kysely<DB>, seriesId: string): Promise<CompanionSeries> {
    if (this.abandoned !== abandonedTransactions()) {
      this.entries.clear();
      this.abandoned = abandonedTransactions();
    }
    const stamps = await readStamps(db, seriesId);
    const kept = this.entries.get(seriesId);
    const entry: CachedSeries =
      kept && kept.story === stamps.story
        ? kept
        : { story: stamps.story, material: await loadSeriesMaterial(db, seriesId), findings: new Map(), suggestions: -1, previous: new Set() };
    if (entry.suggestions !== stamps.suggestions) {
      entry.previous = await liveSuggestionContents(db, seriesId);
      entry.suggestions = stamps.suggestions;
    }
    // Most recently used last; the oldest goes first.
    this.entries.delete(seriesId);
    this.entries.set(seriesId, entry);
    if (this.entries.size > MAX_CACHED) this.entries.delete(this.entries.keys().next().value!);
    const readAt = entry.suggestions;
    return {
      material: entry.material,
      previous: entry.previous,
      findings: (bookId) => {
        const key = bookId ?? '';
        let findings = entry.findings.get(key);
        if (!findings) entry.findings.set(key, (findings = seriesFindings(entry.material, bookId)));
        return findings;
      },
      remember: (content, rev) => {
        if (entry.suggestions !== readAt || this.entries.get(seriesId) !== entry) return;
        // In place: a request still picking from this set then also skips the new one, as it should.
        entry.suggestions = rev;
        entry.previous.add(content);
      },
    };
  }
}
