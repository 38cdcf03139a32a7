/**
 * Reads a chosen Scrivener project, off the main thread: the folder's files or the .zip go to the
 * Scrivener worker, which reads and parses them (a large project never holds the page up) and
 * answers with the project, or with the message to show. Where workers are missing (tests in
 * jsdom) the same code runs here.
 */
import type { ScrivenerProject } from './project';
import { MESSAGES, ScrivenerReadError } from './messages';
import type { ScrivenerMessage, ScrivenerRequest } from './worker-protocol';

export function readScrivenerProject(request: ScrivenerRequest, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ScrivenerProject> {
  if (typeof Worker === 'undefined') return import('./read-request').then(({ readRequest }) => readRequest(request, onProgress));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./scrivener.worker.ts', import.meta.url), { type: 'module', name: 'scrivener-import' });
    const stop = () => worker.terminate();
    signal?.addEventListener('abort', () => {
      stop();
      reject(new DOMException('Import cancelled', 'AbortError'));
    });
    worker.onmessage = (event: MessageEvent<ScrivenerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') return onProgress(message.fraction);
      stop();
      if (message.type === 'done') resolve(message.project);
      else reject(new ScrivenerReadError(message.message));
    };
    worker.onerror = (event) => {
      stop();
      reject(new ScrivenerReadError(event.message || MESSAGES.damaged));
    };
    worker.postMessage(request);
  });
}
