import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { type WritingActivityAnswer, expandActivity, hasFeature } from '@chronicler/schema';
import { api, isApiError, isNetworkError, serverMessageOf } from '@/lib/api';
import { useSession } from '@/lib/session';
import { useDb } from '@/lib/sync';
import { useOnline } from '@/lib/useOnline';
import { readWritingActivity, storeWritingActivity } from '@/lib/writingActivityCache';
import { type AnalyticsFigures, type PlaceNames, analyticsFigures, sampleAnalytics } from '../model/analytics';
import { useNow, useProgressSnapshot } from './useProgress';

/** Where the saves behind time of day, sessions and books stand. */
export type ActivityStatus =
  | { kind: 'loading' }
  | { kind: 'current' }
  /** Offline or the server unreachable: figures as of `fetchedAt` (null: never fetched on this device). */
  | { kind: 'offline'; fetchedAt: number | null }
  | { kind: 'error'; message: string; fetchedAt: number | null };

export interface AnalyticsState {
  /** undefined while the local database is read. */
  figures: AnalyticsFigures | undefined;
  /** false: the plan lacks `analytics`; figures are the sample under the upgrade prompt. */
  unlocked: boolean;
  activity: ActivityStatus;
  retry: () => void;
}

/** The names of the author's books and series, and which book each chapter is in now, from Dexie. */
function usePlaceNames(): PlaceNames | undefined {
  const db = useDb();
  return useLiveQuery(async () => {
    const [series, books] = await Promise.all([db.series.toArray(), db.books.toArray()]);
    const seriesTitles = new Map(series.filter((s) => !s.deletedAt).map((s) => [s.id, s.title]));
    const bookOfChapter = new Map<string, string>();
    // A key cursor over the bookId index: no chapter text is read.
    await db.chapters.orderBy('bookId').eachKey((bookId, cursor) => {
      bookOfChapter.set(String(cursor.primaryKey), String(bookId));
    });
    return {
      books: new Map(books.filter((b) => !b.deletedAt).map((b) => [b.id, { title: b.title, seriesTitle: seriesTitles.get(b.seriesId) ?? '' }])),
      series: seriesTitles,
      bookOfChapter,
    };
  }, [db]);
}

/**
 * The page's figures, live: daily words from the local database, the saves from the server when
 * online (kept on the device for offline visits), the sample when the plan lacks `analytics`.
 */
export function useAnalytics(): AnalyticsState {
  const user = useSession((s) => s.user);
  const plan = user?.plan ?? 'apprentice';
  const unlocked = hasFeature(plan, 'analytics');
  const online = useOnline();
  const now = useNow();
  const snapshot = useProgressSnapshot();
  const names = usePlaceNames();
  const userId = user?.id ?? '';
  const [cached, setCached] = useState(() => readWritingActivity(userId));
  const [status, setStatus] = useState<ActivityStatus>(() => ({ kind: 'loading' }));
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!unlocked || !userId) return;
    const known = readWritingActivity(userId);
    setCached(known);
    if (!online) {
      setStatus({ kind: 'offline', fetchedAt: known?.fetchedAt ?? null });
      return;
    }
    const controller = new AbortController();
    setStatus({ kind: 'loading' });
    api
      .get<WritingActivityAnswer>('/api/writing-activity', { signal: controller.signal })
      .then((answer) => {
        const entry = { userId, fetchedAt: Date.now(), answer };
        storeWritingActivity(entry);
        setCached(entry);
        setStatus({ kind: 'current' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const fetchedAt = known?.fetchedAt ?? null;
        if (isNetworkError(error) || (isApiError(error) && error.status >= 500)) setStatus({ kind: 'offline', fetchedAt });
        else setStatus({ kind: 'error', message: serverMessageOf(error, 'Your writing sessions could not be loaded.'), fetchedAt });
      });
    return () => controller.abort();
  }, [unlocked, userId, online, attempt]);

  const activity = useMemo(() => (cached ? expandActivity(cached.answer) : null), [cached]);
  const figures = useMemo(() => {
    if (!unlocked) return sampleAnalytics(now);
    if (!snapshot || !names) return undefined;
    return analyticsFigures(snapshot, activity, names, now, plan);
  }, [unlocked, snapshot, names, activity, now, plan]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { figures, unlocked, activity: status, retry };
}
