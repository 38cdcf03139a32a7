/**
 * The one wrapper both storages put around their Kysely driver: a storage says how it begins a
 * transaction (SQLite: `read write` as BEGIN IMMEDIATE, sqlite/write-transactions.ts; PostgreSQL:
 * `read write` locks the seq row first, postgres/write-transactions.ts), and this counts the write
 * transactions that ended without committing (`abandonedTransactions`): a cache filled with what a
 * write transaction read or wrote (ai/material.ts) trusts it only while that count stands still,
 * since a rolled-back write gives its revs back to the next one.
 */
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';

let abandoned = 0;

/** How many write transactions (`read write`) in this process have rolled back, or failed to commit, so far. */
export function abandonedTransactions(): number {
  return abandoned;
}

/**
 * Begins a transaction the storage's way: `begin` is the driver's own BEGIN, for the settings the
 * storage leaves alone; `writing()` marks it a write transaction (its end is counted) as soon as
 * its BEGIN has run.
 */
export type BeginTransaction = (
  connection: DatabaseConnection,
  settings: TransactionSettings,
  begin: (connection: DatabaseConnection, settings: TransactionSettings) => Promise<void>,
  writing: () => void,
) => Promise<void>;

export function withWriteTransactions(dialect: Dialect, beginTransaction: BeginTransaction): Dialect {
  return {
    createDriver: () => {
      const driver: Driver = dialect.createDriver();
      const begin = driver.beginTransaction.bind(driver);
      const writing = new WeakSet<DatabaseConnection>();
      driver.beginTransaction = async (connection: DatabaseConnection, settings: TransactionSettings) => {
        await beginTransaction(connection, settings, begin, () => writing.add(connection));
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
