/**
 * Prepared statements kept across queries. Kysely's SQLite driver calls `prepare(sql)` for every
 * query, and preparing costs more than running most of ours (~40% of a read's CPU, measured in
 * bench/README.md). This wraps the better-sqlite3 handle the dialect is given so that `prepare`
 * answers a cached statement for SQL text it has seen, least recently used first out.
 *
 * Sharing a statement is safe because Kysely's SQLite driver has one connection and runs one query
 * on it at a time (its connection mutex), so no two queries use a statement at once.
 */
import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept; our queries have a few hundred shapes (IN lists of varying length add more). */
export const STATEMENT_CACHE_SIZE = 1000;

export interface CachingHandle extends SqliteDatabase {
  /** Statements currently cached (for tests). */
  readonly size: number;
}

/**
 * How many statements that may change data have run on a connection: a result read when it was N
 * is still the database's answer while it is N (db/sqlite/direct-statements.ts caches some reads on that).
 * Counted as a statement is handed out, before it runs: nothing can read in between (synchronous).
 */
const writeCounts = new WeakMap<Database.Database, { value: number }>();

export function noteWrite(sqlite: Database.Database): void {
  const count = writeCounts.get(sqlite);
  if (count) count.value += 1;
  else writeCounts.set(sqlite, { value: 1 });
}

export function writeCount(sqlite: Database.Database): number {
  return writeCounts.get(sqlite)?.value ?? 0;
}

export function cachingStatements(sqlite: Database.Database, capacity = STATEMENT_CACHE_SIZE): CachingHandle {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const statements = new Map<string, Database.Statement>();
  return {
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      // BEGIN/COMMIT/SAVEPOINT count as read-only; ROLLBACK only returns to a state older reads saw.
      if (!statement.readonly) noteWrite(sqlite);
      return statement as unknown as SqliteStatement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
    get size() {
      return statements.size;
    },
  };
}
