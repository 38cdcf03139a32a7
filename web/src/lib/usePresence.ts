/**
 * Who else has this chapter open right now (collaboration presence, docs/server.md#collaboration).
 * The open editor announces itself on entering (the answer names who is there already), then hears
 * every arrival and departure as a `presence` event on the sync stream (lib/liveEvents). It says
 * goodbye when closed or when the page goes away; the heartbeat every PRESENCE_HEARTBEAT_MS only
 * keeps the server's entry alive (and corrects the list should an event be missed). Offline, nobody
 * is shown (we cannot know).
 */
import { useEffect, useState } from 'react';
import { PRESENCE_HEARTBEAT_MS, type PresenceEventData, type PresentAuthor } from '@chronicler/schema';
import { api } from './api';
import { useLiveEvent } from './liveEvents';
import { useSession } from './session';
import { useOnline } from './useOnline';

const presenceUrl = (chapterId: string) => `/api/collaboration/chapters/${encodeURIComponent(chapterId)}/presence`;

export function usePresence(chapterId: string | null | undefined): PresentAuthor[] {
  const online = useOnline();
  const me = useSession((s) => s.user?.id ?? null);
  const [present, setPresent] = useState<PresentAuthor[]>([]);

  useLiveEvent('presence', (data) => {
    const event = data as PresenceEventData;
    if (!online || !chapterId || event?.chapterId !== chapterId || !Array.isArray(event.present)) return;
    setPresent(event.present.filter((author) => author.userId !== me));
  });

  useEffect(() => {
    if (!chapterId || !online) {
      setPresent([]);
      return;
    }
    const url = presenceUrl(chapterId);
    let live = true;
    const report = () =>
      api.post<{ present: PresentAuthor[] }>(url).then(
        (answer) => live && setPresent(answer?.present ?? []),
        () => live && setPresent([]),
      );
    void report();
    const timer = window.setInterval(() => void report(), PRESENCE_HEARTBEAT_MS);
    // A closed tab or a navigation away: the goodbye must outlive the page.
    const goodbye = () => void fetch(url, { method: 'DELETE', credentials: 'include', keepalive: true }).catch(() => undefined);
    window.addEventListener('pagehide', goodbye);
    return () => {
      live = false;
      window.clearInterval(timer);
      window.removeEventListener('pagehide', goodbye);
      api.delete(url).catch(() => undefined);
    };
  }, [chapterId, online]);
  return present;
}
