/**
 * The Scrivener import worker: reads and parses a whole project (binder XML, every RTF) off the
 * main thread, so a project of a thousand texts never freezes the page (docs/decisions/0013-scrivener-import.md).
 */
import { readRequest } from './read-request';
import type { ScrivenerMessage, ScrivenerRequest } from './worker-protocol';

const post = (message: ScrivenerMessage) => (self as unknown as Worker).postMessage(message);

self.onmessage = async (event: MessageEvent<ScrivenerRequest>) => {
  try {
    const project = await readRequest(event.data, (fraction) => post({ type: 'progress', fraction }));
    post({ type: 'done', project });
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
