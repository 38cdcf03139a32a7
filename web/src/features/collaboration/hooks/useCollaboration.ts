/**
 * The Collaboration page's data: the author's series (owned and shared) and their pending invites,
 * from the server. Refreshed on mount, when the changes feed says a series entered or left the
 * author's scope (a join, a removal, a role change), when the sync stream says the author's invites
 * changed (one sent, refreshed, revoked or answered elsewhere: `invites`, lib/liveEvents), when the
 * soonest pending invite expires, when the window regains focus or the network returns, and every
 * 30 s while the page is open. Each fetch of the series list also refreshes the roles kept in the
 * local database.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CollaborativeSeries, Invite } from '@chronicler/schema';
import { isNetworkError } from '@/lib/api';
import { useLiveEvent } from '@/lib/liveEvents';
import { useOptionalSync, useSyncEvents } from '@/lib/sync';
import { changesScope, refreshSeriesRoles } from '@/lib/useSeriesRole';
import { collaborationApi } from '../api';

export type CollaborationStatus = 'loading' | 'ready' | 'error' | 'offline';

export interface CollaborationData {
  status: CollaborationStatus;
  series: CollaborativeSeries[];
  invites: Invite[];
  refresh: () => Promise<void>;
}

const POLL_MS = 30_000;
/** setTimeout's longest wait. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function useCollaboration(): CollaborationData {
  const db = useOptionalSync()?.db ?? null;
  const [status, setStatus] = useState<CollaborationStatus>('loading');
  const [series, setSeries] = useState<CollaborativeSeries[]>([]);
  const [invites, setInvites] = useState<Invite[]>([]);
  const mounted = useRef(true);

  const refresh = useCallback(async () => {
    try {
      const [list, pending] = await Promise.all([refreshSeriesRoles(db), collaborationApi.pendingInvites()]);
      if (!mounted.current) return;
      setSeries(list);
      setInvites(pending);
      setStatus('ready');
    } catch (error) {
      if (!mounted.current) return;
      // Offline keeps what was shown; a first load offline says so rather than "error".
      setStatus(isNetworkError(error) ? 'offline' : 'error');
    }
  }, [db]);

  useEffect(() => {
    mounted.current = true;
    void refresh();
    const again = () => void refresh();
    window.addEventListener('focus', again);
    window.addEventListener('online', again);
    const timer = window.setInterval(again, POLL_MS);
    return () => {
      mounted.current = false;
      window.removeEventListener('focus', again);
      window.removeEventListener('online', again);
      window.clearInterval(timer);
    };
  }, [refresh]);

  useSyncEvents((event) => {
    if (changesScope(event)) void refresh();
  });
  useLiveEvent('invites', () => void refresh());

  // An invite that expires while the page is open leaves it then (the server no longer lists it).
  const soonestExpiry = invites.reduce((soonest, invite) => Math.min(soonest, Date.parse(invite.expiresAt)), Infinity);
  useEffect(() => {
    if (!Number.isFinite(soonestExpiry)) return undefined;
    const timer = window.setTimeout(() => void refresh(), Math.min(MAX_TIMER_MS, Math.max(0, soonestExpiry - Date.now()) + 1_000));
    return () => window.clearTimeout(timer);
  }, [soonestExpiry, refresh]);

  return { status, series, invites, refresh };
}
