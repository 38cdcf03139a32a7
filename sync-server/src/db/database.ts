/**
 * Opens the SQLite database: WAL, synchronous=FULL, foreign keys, busy timeout — and checks
 * they took effect (DESIGN.md §4). Kysely keeps queries portable; SQLite-only SQL stays here.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { DB } from './tables.ts';
import { migrateToLatest } from './migrations.ts';

export interface OpenedDatabase {
  db: Kysely<DB>;
  /** The raw handle, for the backup command, integrity checks and benchmarks' baselines. */
  sqlite: Database.Database;
  close(): Promise<void>;
}

export async function openDatabase(file: string): Promise<OpenedDatabase> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  checkPragmas(sqlite, file);

  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  });
  await migrateToLatest(db);
  return {
    db,
    sqlite,
    async close() {
      await db.destroy(); // closes the better-sqlite3 handle too
    },
  };
}

function checkPragmas(sqlite: Database.Database, file: string): void {
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
