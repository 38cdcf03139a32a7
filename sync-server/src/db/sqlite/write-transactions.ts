/**
 * SQLite's transactions begin DEFERRED: a write transaction that reads first takes the write lock
 * only at its first write, and if another connection (the operator command, a second server
 * process) committed in between, SQLite refuses that write at once (SQLITE_BUSY_SNAPSHOT) instead of
 * waiting out the busy timeout. Transactions started as `read write` (the group commit's, a batch's)
 * therefore begin IMMEDIATE: they wait for the write lock up front and never meet that refusal.
 * Other transactions (the changes feed's consistent read) stay deferred and block no writer.
 *
 * It also counts the write transactions that ended without committing (`abandonedTransactions`):
 * a cache filled with what a write transaction read or wrote (ai/material.ts) trusts it only while
 * that count stands still, since a rolled-back write gives its revs back to the next one.
 */
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type TransactionSettings } from 'kysely';

let abandoned = 0;

/** How many write transactions (`read write`) in this process have rolled back, or failed to commit, so far. */
export function abandonedTransactions(): number {
  return abandoned;
}

export function immediateWriteTransactions(dialect: Dialect): Dialect {
  return {
    createDriver: () => {
      const driver: Driver = dialect.createDriver();
      const beginDeferred = driver.beginTransaction.bind(driver);
      const writing = new WeakSet<DatabaseConnection>();
      driver.beginTransaction = async (connection: DatabaseConnection, settings: TransactionSettings) => {
        if (settings.accessMode === 'read write') {
          await connection.executeQuery(CompiledQuery.raw('begin immediate'));
          writing.add(connection);
        } else {
          await beginDeferred(connection, settings);
        }
      };
      const commit = driver.commitTransaction.bind(driver);
      driver.commitTransaction = async (connection: DatabaseConnection) => {
        try {
          await commit(connection);
        } catch (error) {
          if (writing.has(connection)) abandoned += 1;
          throw error;
        } finally {
          writing.delete(connection);
        }
      };
      const rollback = driver.rollbackTransaction.bind(driver);
      driver.rollbackTransaction = (connection: DatabaseConnection) => {
        if (writing.delete(connection)) abandoned += 1;
        return rollback(connection);
      };
      return driver;
    },
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
