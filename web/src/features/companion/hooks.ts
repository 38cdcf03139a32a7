import { useCallback, useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AiAllowance, AiSuggestion, Book, Chapter, Series } from '@chronicler/schema';
import { booksOfSeries, chaptersOfBook, chaptersOfSeries, seriesList, suggestionsOfSeries } from '@chronicler/sync-client';
import { useDb } from '@/lib/sync';
import { fetchAllowance } from './api';

export interface CompanionData {
  series: Series[] | undefined;
  /** undefined while loading (or no series chosen). */
  books: Book[] | undefined;
  chapters: Chapter[] | undefined;
  suggestions: { rows: AiSuggestion[] } | { error: unknown } | undefined;
}

/** Everything the companion reads from the device, live (so it works offline). */
export function useCompanionData(seriesId: string | null, bookId: string | null, reloadKey: number): CompanionData {
  const db = useDb();
  const series = useLiveQuery(() => seriesList(db), [db]);
  const books = useLiveQuery(async () => (seriesId ? booksOfSeries(db, seriesId) : undefined), [db, seriesId]);
  const chapters = useLiveQuery(
    async () => (bookId ? chaptersOfBook(db, bookId) : seriesId ? chaptersOfSeries(db, seriesId) : undefined),
    [db, seriesId, bookId],
  );
  const suggestions = useLiveQuery(async () => {
    if (!seriesId) return undefined;
    try {
      return { rows: await suggestionsOfSeries(db, seriesId, bookId) };
    } catch (error) {
      return { error };
    }
  }, [db, seriesId, bookId, reloadKey]);
  return { series, books, chapters, suggestions };
}

/** Today's allowance from the server; null offline or when it cannot be read. */
export function useAllowance(online: boolean): { allowance: AiAllowance | null | undefined; refresh: () => void } {
  const [allowance, setAllowance] = useState<AiAllowance | null | undefined>(undefined);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!online) {
      setAllowance(null);
      return;
    }
    let live = true;
    fetchAllowance().then(
      (a) => live && setAllowance(a),
      () => live && setAllowance(null),
    );
    return () => {
      live = false;
    };
  }, [online, tick]);
  return { allowance, refresh: useCallback(() => setTick((n) => n + 1), []) };
}

/** Text of the allowance for people: "2 of 3 suggestions left today", or unlimited. */
export function allowanceText(allowance: AiAllowance): string {
  if (allowance.remaining === -1) return 'Unlimited suggestions today';
  return `${allowance.remaining} of ${allowance.limit} ${allowance.limit === 1 ? 'suggestion' : 'suggestions'} left today`;
}
