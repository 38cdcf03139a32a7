import type { ExportFile } from '../formats/render';

/** What the export worker sends back. */
export type WorkerMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; file: ExportFile }
  | { type: 'error'; message: string };
