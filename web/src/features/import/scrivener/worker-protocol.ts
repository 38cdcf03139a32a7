/** Messages between the import screen and the Scrivener worker (scrivener.worker.ts). */
import type { ScrivenerProject } from './project';
import type { PickedFile } from './source';

export type ScrivenerRequest = { kind: 'folder'; files: PickedFile[] } | { kind: 'zip'; file: Blob };

export type ScrivenerMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; project: ScrivenerProject }
  | { type: 'error'; message: string };
