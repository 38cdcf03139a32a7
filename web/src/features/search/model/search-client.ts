/**
 * The page's side of the search worker: one worker per signed-in author, started the first time
 * search opens and kept (its index stays current while the app is open); stopped, and its stored
 * index deleted, at sign-out. Where workers are missing (jsdom tests) the index runs on this
 * thread with the same code.
 */
import type { LiveIndex } from '../worker/live-index';
import type { FromSearchWorker, SearchPhase, ToSearchWorker } from '../worker/protocol';
import type { SearchAnswer } from './engine';

export interface SearchStatus {
  phase: SearchPhase | 'idle';
  documents: number;
  /** Bumped on every change the index takes in: an open search asks again. */
  epoch: number;
  message?: string;
}

/** The worker's status, observable (useSyncExternalStore). Not zustand's store: its module shared with the shell became a chunk of its own. */
export interface StatusStore {
  getState(): SearchStatus;
  subscribe(listener: () => void): () => void;
}

function statusStore(initial: SearchStatus): StatusStore & { setState(next: SearchStatus): void } {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setState(next) {
      state = next;
      for (const listener of listeners) listener();
    },
  };
}

export interface SearchClient {
  readonly userId: string;
  readonly status: StatusStore;
  search(query: string, seriesId: string | null): Promise<SearchAnswer>;
  stop(): void;
}

interface Port {
  post(message: ToSearchWorker): void;
  stop(): void;
}

let current: SearchClient | null = null;

/** The author's search client, started on first use. */
export function searchClient(userId: string): SearchClient {
  if (current?.userId === userId) return current;
  current?.stop();
  current = startClient(userId);
  return current;
}

/** Stops the author's search worker (sign-out) and forgets its stored index. */
export async function stopSearch(userId: string): Promise<void> {
  if (current?.userId === userId) {
    current.stop();
    current = null;
  }
  const [{ default: Dexie }, { searchDbName }] = await Promise.all([import('dexie'), import('../worker/store')]);
  await Dexie.delete(searchDbName(userId)).catch(() => undefined);
}

function startClient(userId: string): SearchClient {
  const status = statusStore({ phase: 'idle', documents: 0, epoch: 0 });
  const waiting = new Map<number, (answer: SearchAnswer) => void>();
  let nextId = 1;
  const receive = (message: FromSearchWorker) => {
    if (message.type === 'status') {
      status.setState({ phase: message.phase, documents: message.documents, epoch: message.epoch, ...(message.message ? { message: message.message } : {}) });
      return;
    }
    waiting.get(message.id)?.(message.answer);
    waiting.delete(message.id);
  };
  const port = typeof Worker === 'undefined' ? inThread(receive) : inWorker(receive);
  port.post({ type: 'open', userId });
  return {
    userId,
    status,
    search(query, seriesId) {
      const id = nextId++;
      return new Promise<SearchAnswer>((resolve) => {
        waiting.set(id, resolve);
        port.post({ type: 'search', id, query, seriesId });
      });
    },
    stop() {
      port.stop();
      waiting.clear();
    },
  };
}

function inWorker(receive: (message: FromSearchWorker) => void): Port {
  const worker = new Worker(new URL('../worker/search.worker.ts', import.meta.url), { type: 'module', name: 'search' });
  worker.onmessage = (event: MessageEvent<FromSearchWorker>) => receive(event.data);
  worker.onerror = (event) => receive({ type: 'status', phase: 'failed', documents: 0, epoch: 0, message: event.message || 'Search could not start' });
  return { post: (message) => worker.postMessage(message), stop: () => worker.terminate() };
}

/** The worker's loop on this thread (tests): the same LiveIndex, loaded on first message. */
function inThread(receive: (message: FromSearchWorker) => void): Port {
  let live: Promise<LiveIndex> | null = null;
  let epoch = 0;
  return {
    post(message) {
      if (message.type === 'open') {
        receive({ type: 'status', phase: 'opening', documents: 0, epoch });
        live = import('../worker/live-index').then(({ LiveIndex }) =>
          LiveIndex.open({ userId: message.userId, onChange: (documents) => receive({ type: 'status', phase: 'ready', documents, epoch: ++epoch }) }),
        );
        live.then(
          (index) => receive({ type: 'status', phase: 'ready', documents: index.documents, epoch }),
          (error: unknown) => receive({ type: 'status', phase: 'failed', documents: 0, epoch, message: String(error) }),
        );
        return;
      }
      void live?.then(async (index) => {
        await index.settled();
        receive({ type: 'answer', id: message.id, answer: index.search(message.query, { seriesId: message.seriesId }), tookMs: 0 });
      });
    },
    stop() {
      void live?.then((index) => index.close());
    },
  };
}
