/**
 * The backup work handed to worker threads (docs/server.md#backups): a pool per app (closed with
 * it), and the archive built there from what the database gave.
 */
import { WorkerPool } from '../workers/pool.ts';
import type { ArchiveAccount } from './archive.ts';
import type { BuildArchiveInput } from './archive-tasks.ts';
import type { BackupSource } from './collect.ts';

const TASKS_MODULE = new URL('./archive-tasks.ts', import.meta.url);

/** A pool for backup work; `memoryMb` caps each worker's heap (WORKER_MEMORY_MB). */
export function createBackupWorkers(memoryMb: number | null = null): WorkerPool {
  return new WorkerPool({ tasksModule: TASKS_MODULE, resourceLimits: memoryMb ? { maxOldGenerationSizeMb: memoryMb } : undefined });
}

let shared: WorkerPool | null = null;

/** The process's pool for callers outside an app (the operator command, tests driving the schedule). */
export function sharedBackupWorkers(): WorkerPool {
  shared ??= createBackupWorkers();
  return shared;
}

/** The archive of `source`, built on a worker thread; a worker's crash fails this archive alone (WorkerCrashedError). */
export async function buildArchiveOffThread(workers: WorkerPool, source: BackupSource, account: ArchiveAccount, now: Date): Promise<Uint8Array> {
  const input: BuildArchiveInput = { source, account: { username: account.username, displayName: account.displayName }, createdAt: now.toISOString() };
  return workers.run<Uint8Array>('buildArchive', input);
}
