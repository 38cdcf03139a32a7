/**
 * Several reads that must see one state of the database (the changes feed: the cut and the rows it
 * covers), in ONE read transaction. While it is open it holds the storage's one connection, like a
 * group commit's transaction does, so its prepared statements run straight on the connection where
 * the storage allows it (db/sqlite/direct-statements.ts) instead of passing Kysely's executor per
 * query.
 */
import type { Kysely, Transaction } from 'kysely';
import { enableDirectStatementsIn } from './sqlite/direct-statements.ts';

export function inReadSnapshot<DB, T>(db: Kysely<DB>, read: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  // 'read only': on PostgreSQL a REPEATABLE READ snapshot (db/postgres/write-transactions.ts); SQLite's read transaction is one already.
  return db.transaction().setAccessMode('read only').execute((trx) => {
    enableDirectStatementsIn(trx, db, 'read');
    return read(trx);
  });
}
