/**
 * The SQLite file itself: opened with WAL, synchronous=FULL, foreign keys and a busy timeout, and
 * checked that they took effect (docs/server.md#storage); the online backup the operator command
 * makes.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type SqliteHandle = Database.Database;

export function openSqlite(file: string): SqliteHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Another process (the operator command, a second server) may hold the write lock for a moment.
  sqlite.pragma('busy_timeout = 5000');
  checkPragmas(sqlite, file);
  return sqlite;
}

function checkPragmas(sqlite: SqliteHandle, file: string): void {
  const journal = String(sqlite.pragma('journal_mode', { simple: true })).toLowerCase();
  const synchronous = Number(sqlite.pragma('synchronous', { simple: true }));
  const foreignKeys = Number(sqlite.pragma('foreign_keys', { simple: true }));
  // An in-memory database reports journal_mode "memory": acceptable for tests only.
  const walOk = journal === 'wal' || (file === ':memory:' && journal === 'memory');
  if (!walOk || synchronous !== 2 || foreignKeys !== 1) {
    throw new Error(
      `SQLite settings did not take effect (journal_mode=${journal}, synchronous=${synchronous}, foreign_keys=${foreignKeys})`,
    );
  }
}

/**
 * SQLite's online backup of `sqlite` into the new file `out` (a consistent snapshot even while the
 * server keeps writing), then the copy's integrity check: 'ok', or what the check found.
 */
export async function backupSqlite(sqlite: SqliteHandle, out: string): Promise<string> {
  await sqlite.backup(out);
  const copy = new Database(out, { readonly: true, fileMustExist: true });
  try {
    return String(copy.pragma('integrity_check', { simple: true }));
  } finally {
    copy.close();
  }
}
