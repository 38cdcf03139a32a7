/**
 * A query's answer from the author's index, asked again when the index takes in a change (a save
 * here, a collaborator's sync) so an open search never shows what the chapters no longer say.
 * Typing is debounced a little; an answer to an older query is dropped.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { SearchAnswer } from '../model/engine';
import { type SearchStatus, searchClient } from '../model/search-client';

const TYPING_PAUSE_MS = 80;
const IDLE: SearchStatus = { phase: 'idle', documents: 0, epoch: 0 };

export interface SearchState {
  status: SearchStatus;
  answer: SearchAnswer | null;
  /** A query is on its way (the answer shown is for an earlier one). */
  searching: boolean;
}

export function useSearch(userId: string | null, query: string, seriesId: string | null): SearchState {
  const client = userId ? searchClient(userId) : null;
  const status = useSyncExternalStore(
    (listener) => client?.status.subscribe(listener) ?? (() => {}),
    () => client?.status.getState() ?? IDLE,
  );
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [searching, setSearching] = useState(false);
  const asked = useRef(0);

  useEffect(() => {
    if (!client) return undefined;
    const ask = ++asked.current;
    if (query.trim().length < 2) {
      setAnswer(null);
      setSearching(false);
      return undefined;
    }
    setSearching(true);
    const timer = setTimeout(() => {
      void client.search(query, seriesId).then((found) => {
        if (asked.current !== ask) return;
        setAnswer(found);
        setSearching(false);
      });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [client, query, seriesId, status.epoch, status.phase]);

  return { status, answer, searching };
}
