/**
 * The search worker: holds the author's index off the page's thread, so building it, keeping it
 * current and answering queries never holds up typing (docs/decisions/0012-offline-search.md).
 */
/// <reference lib="webworker" />
import { LiveIndex } from './live-index';
import type { FromSearchWorker, ToSearchWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let live: Promise<LiveIndex> | null = null;
let epoch = 0;

const post = (message: FromSearchWorker) => self.postMessage(message);

self.onmessage = (event: MessageEvent<ToSearchWorker>) => {
  const message = event.data;
  if (message.type === 'open') {
    if (live) return;
    post({ type: 'status', phase: 'opening', documents: 0, epoch });
    live = LiveIndex.open({
      userId: message.userId,
      onChange: (documents) => post({ type: 'status', phase: 'ready', documents, epoch: ++epoch }),
    });
    live.then(
      (index) => post({ type: 'status', phase: 'ready', documents: index.documents, origin: index.origin, epoch }),
      (error: unknown) => post({ type: 'status', phase: 'failed', documents: 0, message: error instanceof Error ? error.message : String(error), epoch }),
    );
    return;
  }
  if (message.type === 'search' && live) {
    void live.then(async (index) => {
      await index.settled();
      const started = performance.now();
      const answer = index.search(message.query, { seriesId: message.seriesId });
      post({ type: 'answer', id: message.id, answer, tookMs: performance.now() - started });
    });
  }
};
