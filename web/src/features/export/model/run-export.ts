/**
 * Runs one export in the export worker; where workers are missing (tests in jsdom) it runs on
 * this thread instead, with the same code and the same progress reports.
 */
import type { ExportFile, ExportRequest } from '../formats/render';
import type { WorkerMessage } from './worker-protocol';

export function runExport(request: ExportRequest, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ExportFile> {
  if (typeof Worker === 'undefined') return runHere(request, onProgress);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../export.worker.ts', import.meta.url), { type: 'module', name: 'export' });
    const stop = () => worker.terminate();
    signal?.addEventListener('abort', () => {
      stop();
      reject(new DOMException('Export cancelled', 'AbortError'));
    });
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') return onProgress(message.fraction);
      stop();
      if (message.type === 'done') resolve(message.file);
      else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      stop();
      reject(new Error(event.message || 'The export could not start'));
    };
    worker.postMessage(request);
  });
}

async function runHere(request: ExportRequest, onProgress: (fraction: number) => void): Promise<ExportFile> {
  const { renderExport } = await import('../formats/render');
  return renderExport(
    request,
    async () => {
      throw new Error('PDF fonts load only in the export worker');
    },
    onProgress,
  );
}

/** Saves the file through the browser's download (an object URL on a temporary link). */
export function downloadFile(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the download a moment to start before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
