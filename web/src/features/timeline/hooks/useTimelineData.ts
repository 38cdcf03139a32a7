/**
 * The Timeline page's data, live from the local database (docs/architecture.md#the-data-loop:
 * screens never fetch entity data): every series and, for the shown one, its books, characters,
 * locations and events. An answer carries the series it was read for, so switching series never
 * shows the previous rows.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Book, Chapter, Character, Location, TimelineEvent } from '@chronicler/schema';
import { useSeriesChoice, type SeriesChoice } from '@/lib/useSeriesChoice';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { booksOfSeries, chaptersOfBook, charactersOfSeries, locationsOfSeries, timelineOfSeries } from '@chronicler/sync-client';

export interface SeriesRows {
  books: Book[];
  characters: Character[];
  locations: Location[];
  /** In narrative order (position). */
  events: TimelineEvent[];
  /** Titles of the chapters the events name (only those: chapters carry their whole text). */
  chapterTitles: Map<string, string>;
}

export interface TimelineData extends SeriesChoice {
  /** undefined while the shown series' rows load; null when there is no series. */
  rows: SeriesRows | null | undefined;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

export function useTimelineData(db: ChroniclerDb): TimelineData {
  const choice = useSeriesChoice(db);
  const { series, seriesId } = choice;

  const loaded = useLiveQuery(async () => {
    if (!seriesId) return null;
    const [books, characters, locations, events] = await Promise.all([
      booksOfSeries(db, seriesId),
      charactersOfSeries(db, seriesId),
      locationsOfSeries(db, seriesId),
      timelineOfSeries(db, seriesId),
    ]);
    const chapterIds = [...new Set(events.flatMap((e) => (e.chapterId ? [e.chapterId] : [])))];
    const chapters = chapterIds.length ? await db.chapters.bulkGet(chapterIds) : [];
    const chapterTitles = new Map(chapters.flatMap((c) => (c && !c.deletedAt ? [[c.id, c.title] as const] : [])));
    return { seriesId, rows: { books, characters: characters.sort(byName), locations: locations.sort(byName), events, chapterTitles } };
  }, [db, seriesId]);

  let rows: SeriesRows | null | undefined;
  if (series === undefined) rows = undefined;
  else if (seriesId === null) rows = null;
  else rows = loaded && loaded.seriesId === seriesId ? loaded.rows : undefined;

  return { ...choice, rows };
}

/** The chapters of a book, for the event dialog's chapter selector ([] without a book). */
export function useChapters(db: ChroniclerDb, bookId: string | null): Chapter[] | undefined {
  return useLiveQuery(async () => (bookId ? chaptersOfBook(db, bookId) : []), [db, bookId]);
}
