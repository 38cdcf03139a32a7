/**
 * PostgreSQL's counterpart of SQLite's BEGIN IMMEDIATE (db/sqlite/write-transactions.ts): a
 * transaction started as `read write` (a group commit's, a batch's, a login throttle's) first
 * locks the seq row of sync_state (SELECT ... FOR UPDATE) and holds it until it ends. So:
 * - write transactions run one at a time across every instance, exactly as on SQLite's one
 *   writer: code that reads, then writes what it read (idempotency records, merges, allowances)
 *   means the same on both storages;
 * - seqs are taken in commit order: the next writer takes its seq only after the one before has
 *   committed (or rolled back, giving its seq back), so a reader whose cursor passed seq N has seen
 *   every row stamped N or less (docs/sync-protocol.md; docs/decisions/0010-postgresql-storage.md).
 * A `read only` transaction (the changes feed's consistent read, db/read-snapshot.ts) runs at
 * REPEATABLE READ: one snapshot for its cut and its rows, blocking no writer.
 *
 * The counting of abandoned write transactions is the shared wrapper's (db/write-transactions.ts).
 */
import { CompiledQuery, type Dialect } from 'kysely';
import { withWriteTransactions } from '../write-transactions.ts';

const LOCK_SEQ_ROW = CompiledQuery.raw("select value from sync_state where name = 'seq' for update");

export function serialisedWriteTransactions(dialect: Dialect): Dialect {
  return withWriteTransactions(dialect, async (connection, settings, begin, writing) => {
    if (settings.accessMode === 'read write') {
      await connection.executeQuery(CompiledQuery.raw('begin'));
      writing();
      await connection.executeQuery(LOCK_SEQ_ROW);
    } else if (settings.accessMode === 'read only') {
      await connection.executeQuery(CompiledQuery.raw('start transaction isolation level repeatable read read only'));
    } else {
      await begin(connection, settings);
    }
  });
}
