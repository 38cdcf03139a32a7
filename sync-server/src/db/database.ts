/**
 * Opens the SQLite database: WAL, synchronous=FULL, foreign keys, busy timeout — and checks
 * they took effect (DESIGN.md §4). Kysely keeps queries portable; SQLite-only SQL stays here.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, type RawBuilder, SqliteDialect, sql } from 'kysely';
import type { DB } from './tables.ts';
import { migrateToLatest } from './migrations.ts';
import { GroupCommit } from './group-commit.ts';
import { withSharedTransactions } from './shared-transaction.ts';
import { cachingStatements } from './statement-cache.ts';
import { enableDirectStatements } from './prepared.ts';

export interface OpenedDatabase {
  db: Kysely<DB>;
  /** The raw handle, for the backup command, integrity checks and benchmarks' baselines. */
  sqlite: Database.Database;
  /** The queue every write (runMutation) commits through: concurrent writes share one COMMIT. */
  groupCommit: GroupCommit;
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
    dialect: withSharedTransactions(new SqliteDialect({ database: cachingStatements(sqlite) })),
    plugins: [new CamelCasePlugin()],
  });
  await migrateToLatest(db);
  enableDirectStatements(db, sqlite);
  return {
    db,
    sqlite,
    groupCommit: new GroupCommit(db),
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

/** How a field is stored: as its JSON value, as JSON text (arrays), or as 0/1 (booleans). */
export type JsonFieldStorage = 'value' | 'json' | 'boolean';

/** A row as a JSON object built by the database, one key per field in the given order. */
function rowJson(fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>): RawBuilder<unknown> {
  const pairs = fields.map(([field, storage]) => {
    const column = sql.ref(field);
    const value =
      storage === 'json'
        ? sql`json(coalesce(${column}, '[]'))`
        : storage === 'boolean'
          ? sql`json(case when ${column} then 'true' else 'false' end)`
          : column;
    return sql`${sql.lit(field)}, ${value}`;
  });
  return sql`json_object(${sql.join(pairs)})`;
}

/**
 * A row as UTF-8 JSON bytes, built by the database: the changes feed ships megabytes of chapter
 * text without decoding it into JS strings and escaping it again (SQLite json_object cast to a
 * BLOB; on PostgreSQL: convert_to(json_build_object(...)::text, 'UTF8')).
 */
export function rowJsonBytes(fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>): RawBuilder<Uint8Array> {
  return sql<Uint8Array>`cast(${rowJson(fields)} as blob)`;
}

/**
 * The selected rows as ONE JSON array text, in `orderBy` order, built by the database (an
 * aggregate: `[]` when no row matches). Handing a list to the client this way costs a fraction of
 * decoding every value into JS and serialising it again (bench/README.md; on PostgreSQL:
 * coalesce(json_agg(json_build_object(...) order by ...), '[]')).
 */
export function rowsJsonArray(
  fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>,
  orderBy: readonly string[],
): RawBuilder<string> {
  const order = sql.join(orderBy.map((column) => sql`${sql.ref(column)} asc`));
  return sql<string>`json_group_array(${rowJson(fields)} order by ${order})`;
}
