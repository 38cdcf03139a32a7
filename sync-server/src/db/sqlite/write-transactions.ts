/**
 * SQLite's transactions begin DEFERRED: a write transaction that reads first takes the write lock
 * only at its first write, and if another connection (the operator command, a second server
 * process) committed in between, SQLite refuses that write at once (SQLITE_BUSY_SNAPSHOT) instead of
 * waiting out the busy timeout. Transactions started as `read write` (the group commit's, a batch's)
 * therefore begin IMMEDIATE: they wait for the write lock up front and never meet that refusal.
 * Other transactions (the changes feed's consistent read) stay deferred and block no writer.
 * The counting of abandoned write transactions is the shared wrapper's (db/write-transactions.ts).
 */
import { CompiledQuery, type Dialect } from 'kysely';
import { withWriteTransactions } from '../write-transactions.ts';

export function immediateWriteTransactions(dialect: Dialect): Dialect {
  return withWriteTransactions(dialect, async (connection, settings, begin, writing) => {
    if (settings.accessMode !== 'read write') return begin(connection, settings);
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    writing();
  });
}
