/**
 * The storage: the SQLite database behind Kysely (db/README.md). Opens the file (db/sqlite/open.ts:
 * WAL, synchronous=FULL, foreign keys — docs/server.md#storage), migrates it, and switches on the
 * speed-ups its `exclusiveProcess` capability allows.
 */
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { DB } from './tables.ts';
import { migrateToLatest } from './migrations.ts';
import { GROUP_COMMIT_LIMITS, GroupCommit, type GroupCommitLimits } from './group-commit.ts';
import { withSharedTransactions } from './shared-transaction.ts';
import { type SqliteHandle, backupSqlite, openSqlite } from './sqlite/open.ts';
import { cachingStatements } from './sqlite/statement-cache.ts';
import { enableDirectStatements } from './sqlite/direct-statements.ts';
import { immediateWriteTransactions } from './sqlite/write-transactions.ts';
import { type Checkpointer, isFileDatabase, startCheckpointer } from './sqlite/checkpointer.ts';

export interface StorageOptions {
  /**
   * THE single-process capability: this process is the only one that uses the database file (the
   * operator command aside, which writes only users and sessions). When on, the storage may keep
   * what it knows in memory, because nothing else changes the database behind its back:
   * - prepared statements run straight on the connection and chosen reads are answered from a
   *   cache that a write through this connection invalidates (db/sqlite/direct-statements.ts);
   * - signed-in sessions are resolved from memory for a few seconds (auth/session.ts);
   * - concurrent writes wait for each other to share one transaction and one COMMIT
   *   (db/group-commit.ts) — holding the write lock across event-loop turns, which other
   *   processes would have to wait out.
   * Off (DB_SHARED_PROCESSES=true, and always in the operator command): every read goes to the
   * database and every write commits alone, so writes by other processes are seen at once.
   * On by default.
   */
  exclusiveProcess?: boolean;
  /**
   * WAL checkpoints on a worker thread instead of inside the COMMIT that fills the WAL
   * (db/sqlite/checkpointer.ts). On by default for a file database; the operator command, which
   * opens the file for a moment, keeps SQLite's automatic checkpoints.
   */
  backgroundCheckpoints?: boolean;
}

export interface OpenedDatabase {
  db: Kysely<DB>;
  /** The raw handle, for integrity checks in tests and the benchmarks' baselines. */
  sqlite: SqliteHandle;
  /** The queue every write (runMutation) commits through: concurrent writes share one COMMIT. */
  groupCommit: GroupCommit;
  /** Whether the single-process speed-ups are on (StorageOptions.exclusiveProcess). */
  readonly exclusiveProcess: boolean;
  /** The background checkpointer, when StorageOptions.backgroundCheckpoints put one in charge. */
  checkpointer: Checkpointer | null;
  /** A consistent copy into the new file `out`, then its integrity check: 'ok' or what it found. */
  backup(out: string): Promise<string>;
  close(): Promise<void>;
}

/** Each write commits alone: no group holds the write lock while other processes wait. */
const ONE_WRITE_PER_COMMIT: GroupCommitLimits = { maxMembers: 1, maxWorkMs: 0 };

const exclusiveDatabases = new WeakSet<Kysely<DB>>();

/** Whether `db` (a root database) belongs to a storage whose exclusiveProcess capability is on. */
export function isExclusiveProcess(db: Kysely<DB>): boolean {
  return exclusiveDatabases.has(db);
}

export async function openDatabase(file: string, options: StorageOptions = {}): Promise<OpenedDatabase> {
  const exclusiveProcess = options.exclusiveProcess ?? true;
  const sqlite = openSqlite(file);
  const db = new Kysely<DB>({
    // The statement cache only saves preparing SQL again on this connection: safe beside other processes.
    dialect: withSharedTransactions(immediateWriteTransactions(new SqliteDialect({ database: cachingStatements(sqlite) }))),
    plugins: [new CamelCasePlugin()],
  });
  await migrateToLatest(db);
  if (exclusiveProcess) {
    enableDirectStatements(db, sqlite);
    exclusiveDatabases.add(db);
  }
  const checkpointer = (options.backgroundCheckpoints ?? true) && isFileDatabase(file) ? startCheckpointer(sqlite, file) : null;
  return {
    db,
    sqlite,
    checkpointer,
    groupCommit: new GroupCommit(db, exclusiveProcess ? GROUP_COMMIT_LIMITS : ONE_WRITE_PER_COMMIT),
    exclusiveProcess,
    backup: (out) => backupSqlite(sqlite, out),
    async close() {
      await checkpointer?.stop();
      await db.destroy(); // closes the better-sqlite3 handle too
    },
  };
}
