/**
 * SQLite's transactions begin DEFERRED: a write transaction that reads first takes the write lock
 * only at its first write, and if another connection (the operator command, a second server
 * process) committed in between, SQLite refuses that write at once (SQLITE_BUSY_SNAPSHOT) instead of
 * waiting out the busy timeout. Transactions started as `read write` (the group commit's, a batch's)
 * therefore begin IMMEDIATE: they wait for the write lock up front and never meet that refusal.
 * Other transactions (the changes feed's consistent read) stay deferred and block no writer.
 */
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type TransactionSettings } from 'kysely';

export function immediateWriteTransactions(dialect: Dialect): Dialect {
  return {
    createDriver: () => {
      const driver: Driver = dialect.createDriver();
      const beginDeferred = driver.beginTransaction.bind(driver);
      driver.beginTransaction = async (connection: DatabaseConnection, settings: TransactionSettings) => {
        if (settings.accessMode === 'read write') await connection.executeQuery(CompiledQuery.raw('begin immediate'));
        else await beginDeferred(connection, settings);
      };
      return driver;
    },
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
