import { useEffect, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { DEFAULT_DAY_END_HOUR, type PlanName } from '@chronicler/schema';
import { type ProgressSnapshot, readProgress } from '@chronicler/sync-client';
import { useDb } from '@/lib/sync';
import { useSession } from '@/lib/session';
import { type ProgressFigures, browserTimeZone, progressFigures } from '../model/figures';

const MINUTE = 60_000;

/** Now, refreshed every minute (a new writing day begins while the dashboard is open). */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), MINUTE);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

export interface ProgressState {
  /** undefined while the local database is read. */
  figures: ProgressFigures | undefined;
  plan: PlanName;
  now: Date;
}

/** The progress snapshot, live from the local database; undefined while it is read. */
export function useProgressSnapshot(): ProgressSnapshot | undefined {
  const db = useDb();
  return useLiveQuery(() => readProgress(db, { timeZone: browserTimeZone(), dayEndHour: DEFAULT_DAY_END_HOUR }), [db]);
}

/** The author's progress, live from the local database (works offline; rises while typing). */
export function useProgress(): ProgressState {
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const now = useNow();
  const snapshot = useProgressSnapshot();
  const figures = useMemo(() => (snapshot ? progressFigures(snapshot, now, plan) : undefined), [snapshot, now, plan]);
  return { figures, plan, now };
}
