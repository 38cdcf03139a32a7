/**
 * WAL checkpoints on a thread of their own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1,000 pages: it
 * copies those pages into the database file and fsyncs it, on the committing connection — which for
 * better-sqlite3 is the event loop. A 1,000-word save writes ~7.6 WAL pages, so every ~130 saves
 * one of them carried a checkpoint of tens of milliseconds: ~400 µs of the event loop per save,
 * measured (bench/JOURNAL.md, "a quiet machine at last — every target measured"). SQLite's
 * documentation suggests this remedy: switch the automatic checkpoint off for the writer and
 * checkpoint from another thread.
 *
 * A worker thread holds a second connection to the same file and, every CHECKPOINT_EVERY_MS while
 * the WAL has changed, runs a PASSIVE checkpoint: it copies what no reader still needs and never
 * takes the write lock, so the server's writes go on meanwhile. With `synchronous=FULL` on the
 * worker's connection the checkpoint syncs the WAL before and the database after copying, as the
 * automatic one did; the writer starts the WAL over once everything in it has been copied.
 *
 * Safety net: the writer keeps an automatic checkpoint at FALLBACK_AUTOCHECKPOINT_PAGES (16 MB),
 * so the WAL stays bounded even if the worker dies or falls behind.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqliteHandle } from './open.ts';

/** How often the worker looks at the WAL (a PASSIVE checkpoint of an unchanged WAL is skipped). */
export const CHECKPOINT_EVERY_MS = 250;
/**
 * The writer's own automatic checkpoint. Under writes that never pause, the worker rarely has the
 * whole WAL copied at the moment a write begins, which is when SQLite starts the WAL over; the
 * writer's checkpoint at this size then finds little left to copy, and the WAL starts over (16 MB).
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 4_000;

// Eval'd as CommonJS: better-sqlite3 is required by the path resolved here (the worker's own
// resolution would start from the working directory).
const WORKER = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen = '';
let stopped = false;
function tick() {
  if (stopped) return;
  try {
    const stat = fs.statSync(workerData.wal, { throwIfNoEntry: false });
    const mark = stat ? stat.mtimeMs + ':' + stat.size : '';
    if (mark !== '' && mark !== seen) {
      seen = mark;
      const [result] = checkpoint.all();
      parentPort.postMessage({ checkpointed: result.checkpointed, log: result.log });
    }
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
  setTimeout(tick, workerData.every);
}
parentPort.on('message', (message) => {
  if (message === 'stop') {
    stopped = true;
    db.close();
    parentPort.close();
  }
});
setTimeout(tick, workerData.every);
`;

export interface CheckpointerStats {
  /** PASSIVE checkpoints the worker ran. */
  checkpoints: number;
  /** The last one's WAL size and pages copied (SQLite's `log` and `checkpointed`). */
  lastLog: number;
  lastCheckpointed: number;
  /** Checkpoints that failed (the writer's fallback still bounds the WAL). */
  failures: number;
}

export interface Checkpointer {
  readonly stats: CheckpointerStats;
  /** Stops the worker and closes its connection (before the writer closes, which checkpoints last). */
  stop(): Promise<void>;
}

/** Moves `sqlite`'s WAL checkpoints (a file database in WAL mode) onto a worker thread. */
export function startCheckpointer(sqlite: SqliteHandle, file: string): Checkpointer {
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const stats: CheckpointerStats = { checkpoints: 0, lastLog: 0, lastCheckpointed: 0, failures: 0 };
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      wal: `${file}-wal`,
      every: CHECKPOINT_EVERY_MS,
    },
  });
  // The worker must never keep the process alive on its own (tests, the CLI's exit).
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: { checkpointed?: number; log?: number; error?: string }) => {
    if (message.error !== undefined) {
      stats.failures++;
      return;
    }
    stats.checkpoints++;
    stats.lastLog = message.log ?? 0;
    stats.lastCheckpointed = message.checkpointed ?? 0;
  });
  // A worker that cannot start (or dies) leaves the writer's fallback checkpoint in charge.
  worker.on('error', () => {
    stats.failures++;
    restoreAutomaticCheckpoints(sqlite);
  });
  let stopping: Promise<void> | null = null;
  return {
    stats,
    stop() {
      stopping ??= (async () => {
        worker.postMessage('stop');
        const timer = setTimeout(() => void worker.terminate(), 2_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

function restoreAutomaticCheckpoints(sqlite: SqliteHandle): void {
  try {
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  } catch {
    // Closed meanwhile: nothing to restore.
  }
}

/** Whether `file` is a database file a checkpointer can watch (not an in-memory database). */
export function isFileDatabase(file: string): boolean {
  return file !== ':memory:' && file !== '' && !file.startsWith('file::memory:') && fs.existsSync(file);
}
