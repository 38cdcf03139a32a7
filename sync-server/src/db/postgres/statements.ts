/**
 * PostgreSQL's versions of the named statements that cannot be written once for both storages
 * (db/sqlite/statements.ts has the rest, which run on PostgreSQL as written).
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../tables.ts';

/**
 * The counterpart of SQLite's `PRAGMA data_version` for the foreign-commit watch
 * (sync/foreign-commits.ts): the current global seq, which moves whenever any instance or the
 * operator command commits a synced write. The watch subtracts this instance's own commits.
 */
export async function dataVersionPg(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ value: number }>`select value from sync_state where name = 'seq'`.execute(db);
  return Number(rows[0]?.value ?? 0);
}
