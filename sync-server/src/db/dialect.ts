/**
 * The storage dialect's named pieces, for code outside db/: everything that is written for one
 * storage lives under db/sqlite/ or db/postgres/ and is reached through here (db/README.md), so
 * code above db/ never asks which storage it runs on. Each piece picks its storage from the
 * Kysely instance it is given (its adapter); fragments used inside a query are functions of it.
 */
import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import { type JsonFieldStorage, rowJsonBytes as rowJsonBytesSqlite, rowsJsonArray as rowsJsonArraySqlite } from './sqlite/json.ts';
import { rowJsonBytesPg, rowsJsonArrayPg } from './postgres/json.ts';
import { dataVersion as dataVersionSqlite } from './sqlite/statements.ts';
import { dataVersionPg } from './postgres/statements.ts';
import type { DB } from './tables.ts';

export { type JsonFieldStorage } from './sqlite/json.ts';
export { addToWritingDay, countThrottleHit, incrementSeq, insertIdempotencyRecordIfAbsent, upsertRevision } from './sqlite/statements.ts';
export { cachedResults, execStatement } from './sqlite/direct-statements.ts';
export { isStorageUnavailable, isUnstorableText } from './postgres/open.ts';
export { abandonedTransactions } from './write-transactions.ts';

/** One round trip to the storage (the health probe): throws what a query would while it is unreachable. */
export async function probeStorage(db: Kysely<any>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Whether `db` (a root database or one of its transactions) runs on PostgreSQL. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

type Fields = ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>;

/** A row as UTF-8 JSON bytes built by the database, for the storage of `db` (db/sqlite/json.ts). */
export function rowJsonBytes(fields: Fields): (db: Kysely<any>) => RawBuilder<Uint8Array> {
  const sqlite = rowJsonBytesSqlite(fields);
  const postgres = rowJsonBytesPg(fields);
  return (db) => (isPostgres(db) ? postgres : sqlite);
}

/** The selected rows as one JSON array text built by the database, for the storage of `db`. */
export function rowsJsonArray(fields: Fields, orderBy: readonly string[]): (db: Kysely<any>) => RawBuilder<string> {
  const sqlite = rowsJsonArraySqlite(fields, orderBy);
  const postgres = rowsJsonArrayPg(fields, orderBy);
  return (db) => (isPostgres(db) ? postgres : sqlite);
}

/** A number that changes when another process commits (sync/foreign-commits.ts). */
export function dataVersion(db: Kysely<DB>): Promise<number> {
  return isPostgres(db) ? dataVersionPg(db) : dataVersionSqlite(db);
}
