/**
 * The export worker: builds the file off the main thread so a 200,000-word book never freezes the
 * page, reporting progress as it goes. Fonts come from the app's own origin (font-urls.ts): no CDN.
 */
import { fetchFont } from './font-urls';
import { type ExportRequest, renderExport } from './formats/render';
import type { WorkerMessage } from './model/worker-protocol';

const post = (message: WorkerMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer);

self.onmessage = async (event: MessageEvent<ExportRequest>) => {
  try {
    const file = await renderExport(event.data, fetchFont, (fraction) => post({ type: 'progress', fraction }));
    post({ type: 'done', file }, [file.bytes.buffer as ArrayBuffer]);
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
