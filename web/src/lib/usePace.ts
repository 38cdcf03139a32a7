/**
 * The pace of a series' books (docs/decisions/0018-pace-predictions.md), live from the local
 * database, offline too: each book's words (its chapters outside the Trash), its goal, and the
 * shared projection (@chronicler/schema projectPace) over the author's counted words per writing
 * day (the synced statistics plus the words still in the outbox, as the dashboard counts them).
 *
 * The projection uses the book's words at the start of the day, remembered on this device (the
 * day snapshot), so it holds still all day; "words to go" follows the words live.
 */
import { useEffect, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  type Book,
  type DayKey,
  DEFAULT_DAY_END_HOUR,
  type PaceProjection,
  type PaceSnapshot,
  bookGoalOf,
  daySnapshot,
  projectPace,
  writingDay,
} from '@chronicler/schema';
import { booksOfSeries, chaptersOfSeries, readProgress } from '@chronicler/sync-client';
import { readLocalJson, writeLocal } from './storage';
import { useSync } from './sync';

export interface BookPace {
  book: Book;
  /** The book's words now. */
  words: number;
  /** null when the book has no goal. */
  projection: PaceProjection | null;
}

const MINUTE = 60_000;

function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The writing day now, looked at again every minute (a day may end while the screen is open). */
function useToday(timeZone: string | undefined, dayEndHour: number): DayKey | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), MINUTE);
    return () => window.clearInterval(timer);
  }, []);
  return timeZone === undefined ? undefined : writingDay(now, timeZone, dayEndHour);
}

const snapshotKey = (userId: string, bookId: string) => `chronicler.pace.${userId}.${bookId}`;

/** Every book of the series with its pace, in order; undefined while the local database is read. */
export function useSeriesPace(seriesId: string | null | undefined): BookPace[] | undefined {
  const { db, userId } = useSync();
  const data = useLiveQuery(async () => {
    if (!seriesId) return null;
    const [books, chapters, progress] = await Promise.all([
      booksOfSeries(db, seriesId),
      chaptersOfSeries(db, seriesId),
      readProgress(db, { timeZone: deviceTimeZone(), dayEndHour: DEFAULT_DAY_END_HOUR }),
    ]);
    const words = new Map<string, number>();
    for (const c of chapters) words.set(c.bookId, (words.get(c.bookId) ?? 0) + c.wordCount);
    return { books, words, progress };
  }, [db, seriesId]);
  const today = useToday(data?.progress.timeZone, data?.progress.settings?.dayEndHour ?? DEFAULT_DAY_END_HOUR);

  const paces = useMemo(() => {
    if (data === undefined || today === undefined) return undefined;
    if (data === null) return [];
    const daily = data.progress.dailyWords;
    const wordsOn = (day: DayKey) => daily.get(day) ?? 0;
    return data.books.map((book) => {
      const words = data.words.get(book.id) ?? 0;
      const goal = bookGoalOf(book);
      if (!goal) return { book, words, projection: null, snapshot: null };
      const snapshot = daySnapshot(readLocalJson<PaceSnapshot>(snapshotKey(userId, book.id)), today, words);
      return { book, words, projection: projectPace({ goal, wordsAtDayStart: snapshot.words, wordsNow: words, wordsOn, today }), snapshot };
    });
  }, [data, today, userId]);

  // The day's first figure is kept on this device (a phone and a laptop may each take their own).
  useEffect(() => {
    for (const pace of paces ?? []) {
      if (!pace.snapshot) continue;
      const key = snapshotKey(userId, pace.book.id);
      const stored = readLocalJson<PaceSnapshot>(key);
      if (stored?.day !== pace.snapshot.day) writeLocal(key, JSON.stringify(pace.snapshot));
    }
  }, [paces, userId]);

  return useMemo(() => paces?.map(({ book, words, projection }) => ({ book, words, projection })), [paces]);
}

/**
 * The author's writing day today (their zone and day end), for checking a deadline; this device's
 * zone until their record is read, so a form can check at once.
 */
export function useWritingToday(): DayKey {
  const { db } = useSync();
  const progress = useLiveQuery(() => readProgress(db, { timeZone: deviceTimeZone(), dayEndHour: DEFAULT_DAY_END_HOUR }), [db]);
  return useToday(progress?.timeZone ?? deviceTimeZone(), progress?.settings?.dayEndHour ?? DEFAULT_DAY_END_HOUR)!;
}
