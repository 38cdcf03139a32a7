import { useEffect, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { DEFAULT_DAY_END_HOUR, type PlanName, type WritingSettings } from '@chronicler/schema';
import { type ChroniclerDb, keepServerRows, readProgress, writingSettingsTable } from '@chronicler/sync-client';
import { api } from '@/lib/api';
import { useDb } from '@/lib/sync';
import { useSession } from '@/lib/session';
import { useOnline } from '@/lib/useOnline';
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

/** Databases whose author's zone was sent this session (one attempt each; a failure waits for the next visit). */
const zoneSent = new WeakSet<ChroniclerDb>();

/**
 * An author who never chose a time zone gets the browser's (DESIGN.md §4: stored on the user, set
 * from the browser, changeable): until then the server counts their days in UTC.
 */
function useBrowserZoneOnce(db: ChroniclerDb, settings: WritingSettings | null | undefined, online: boolean): void {
  useEffect(() => {
    if (settings !== null || !online || zoneSent.has(db)) return;
    zoneSent.add(db);
    api
      .put<WritingSettings>('/api/writing-settings', { timeZone: browserTimeZone() })
      .then((row) => keepServerRows(writingSettingsTable(db), [row]))
      .catch(() => zoneSent.delete(db));
  }, [db, settings, online]);
}

export interface ProgressState {
  /** undefined while the local database is read. */
  figures: ProgressFigures | undefined;
  plan: PlanName;
  now: Date;
}

/** The author's progress, live from the local database (works offline; rises while typing). */
export function useProgress(): ProgressState {
  const db = useDb();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const now = useNow();
  const snapshot = useLiveQuery(() => readProgress(db, { timeZone: browserTimeZone(), dayEndHour: DEFAULT_DAY_END_HOUR }), [db]);
  useBrowserZoneOnce(db, snapshot === undefined ? undefined : snapshot.settings, useOnline());
  const figures = useMemo(() => (snapshot ? progressFigures(snapshot, now, plan) : undefined), [snapshot, now, plan]);
  return { figures, plan, now };
}
