/**
 * The Collaboration page's data: the author's series (owned and shared) and their pending invites,
 * from the server. Refreshed on mount, when the changes feed says a series entered or left the
 * author's scope (a join, a removal, a role change), when the window regains focus or the network
 * returns, and every 30 s while the page is open (invites to the author are not poked). Each fetch
 * of the series list also refreshes the roles kept in the local database.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CollaborativeSeries, Invite } from '@chronicler/schema';
import { isNetworkError } from '@/lib/api';
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

  return { status, series, invites, refresh };
}
