/**
 * Who else has this chapter open right now (collaboration, issue 13): the open editor reports
 * itself every PRESENCE_HEARTBEAT_MS while online and hears back the others; it says goodbye when
 * closed. Offline, nobody is shown (we cannot know).
 */
import { useEffect, useState } from 'react';
import { PRESENCE_HEARTBEAT_MS, type PresentAuthor } from '@chronicler/schema';
import { api } from './api';
import { useOnline } from './useOnline';

export function usePresence(chapterId: string | null | undefined): PresentAuthor[] {
  const online = useOnline();
  const [present, setPresent] = useState<PresentAuthor[]>([]);
  useEffect(() => {
    if (!chapterId || !online) {
      setPresent([]);
      return;
    }
    const url = `/api/collaboration/chapters/${encodeURIComponent(chapterId)}/presence`;
    let live = true;
    const report = () =>
      api.post<{ present: PresentAuthor[] }>(url).then(
        (answer) => live && setPresent(answer?.present ?? []),
        () => live && setPresent([]),
      );
    void report();
    const timer = window.setInterval(() => void report(), PRESENCE_HEARTBEAT_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
      api.delete(url).catch(() => undefined);
    };
  }, [chapterId, online]);
  return present;
}
