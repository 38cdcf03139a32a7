/**
 * A large data file of an archive parsed on a worker thread: decoding 15 MB of UTF-8 text and
 * parsing it as JSON took ~450 ms of the event loop in one stretch (no request may hold it for more
 * than ~100 ms). The worker answers the array's items a few hundred per message; each message is a
 * turn of its own here, so other requests run between them. Small files are parsed in place (a
 * worker costs tens of milliseconds to start).
 */
import { Worker } from 'node:worker_threads';

/** Files up to this size are parsed in place (a few milliseconds). */
const IN_PLACE_BYTES = 1 << 20;
/** Items per message from the worker. */
const ITEMS_PER_MESSAGE = 200;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let items;
try {
  items = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(workerData.bytes));
} catch {
  items = null;
}
if (!Array.isArray(items)) parentPort.postMessage({ invalid: true });
else {
  for (let i = 0; i < items.length; i += workerData.per) parentPort.postMessage({ items: items.slice(i, i + workerData.per) });
  parentPort.postMessage({ done: true });
}
`;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The items of a JSON array file; null when it is not UTF-8 JSON holding an array. */
export async function parseJsonArray(bytes: Uint8Array): Promise<unknown[] | null> {
  if (bytes.length <= IN_PLACE_BYTES) {
    try {
      const value: unknown = JSON.parse(utf8.decode(bytes));
      return Array.isArray(value) ? value : null;
    } catch {
      return null;
    }
  }
  return new Promise((resolve, reject) => {
    const items: unknown[] = [];
    const worker = new Worker(WORKER, { eval: true, workerData: { bytes, per: ITEMS_PER_MESSAGE } });
    worker.on('message', (message: { items?: unknown[]; invalid?: true; done?: true }) => {
      if (message.items) items.push(...message.items);
      else {
        resolve(message.done ? items : null);
        void worker.terminate();
      }
    });
    worker.on('error', reject);
  });
}
