/**
 * The revision history of a chapter: a non-entity read straight from the server (every save keeps
 * a revision there, docs/sync-protocol.md#chapter-text-merge), so it is only available online.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ChapterRevisionSummary } from '@chronicler/schema';
import { api, isNetworkError, serverMessageOf } from '@/lib/api';

export interface RevisionSnapshot {
  title: string;
  content: string;
  wordCount?: number;
  updatedAt?: string;
}

export type RevisionsState =
  | { status: 'idle' | 'loading' | 'offline' }
  | { status: 'error'; message: string }
  | { status: 'ready'; revisions: ChapterRevisionSummary[] };

export function revisionsPath(chapterId: string): string {
  return `/api/chapters/${encodeURIComponent(chapterId)}/revisions`;
}

/**
 * Loads the list while `enabled` (the drawer is open) and the browser is online, and again whenever
 * `savedRev` (the chapter's revision on the server, as this device last heard it) moves: a save or a
 * restore is sent in the background, so the list is only new once the server has answered.
 */
export function useRevisions(chapterId: string | null, enabled: boolean, online: boolean, savedRev?: number) {
  const [state, setState] = useState<RevisionsState>({ status: 'idle' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    if (!enabled || !chapterId) return undefined;
    if (!online) {
      setState({ status: 'offline' });
      return undefined;
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    api.get<ChapterRevisionSummary[]>(revisionsPath(chapterId), { signal: controller.signal }).then(
      (revisions) => setState({ status: 'ready', revisions }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isNetworkError(error)) setState({ status: 'offline' });
        else setState({ status: 'error', message: serverMessageOf(error, 'The revision history could not be loaded.') });
      },
    );
    return () => controller.abort();
  }, [chapterId, enabled, online, reloads, savedRev]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { state, reload };
}

/** One revision exactly as saved. */
export function fetchRevision(chapterId: string, rev: number, signal?: AbortSignal): Promise<RevisionSnapshot> {
  return api.get<RevisionSnapshot>(`${revisionsPath(chapterId)}/${rev}`, signal ? { signal } : {});
}
