/**
 * The storage behind Kysely (db/README.md): the embedded SQLite file by default (db/sqlite/open.ts:
 * WAL, synchronous=FULL, foreign keys — docs/server.md#storage), or PostgreSQL when the location is
 * a postgres:// URL (db/postgres/: a pool, several instances — docs/server.md#postgresql). Opens
 * it, migrates it, and switches on the speed-ups its `exclusiveProcess` capability allows.
 */
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DB } from './tables.ts';
import { MIGRATION_NAMES, migrateToLatest } from './migrations.ts';
import { GROUP_COMMIT_LIMITS, GroupCommit, type GroupCommitLimits } from './group-commit.ts';
import { withSharedTransactions } from './shared-transaction.ts';
import { type SqliteHandle, backupSqlite, openSqlite } from './sqlite/open.ts';
import { cachingStatements } from './sqlite/statement-cache.ts';
import { enableDirectStatements } from './sqlite/direct-statements.ts';
import { immediateWriteTransactions } from './sqlite/write-transactions.ts';
import { type Checkpointer, isFileDatabase, startCheckpointer } from './sqlite/checkpointer.ts';
import { isPostgresUrl, postgresUrlProblem, redactedUrl } from './postgres/url.ts';
import { StorageStartError, checkReachable, createPool } from './postgres/open.ts';
import { serialisedWriteTransactions } from './postgres/write-transactions.ts';
import { createThrowawayDatabase } from './postgres/throwaway.ts';
import { type InstanceChannel, openInstanceChannel } from './postgres/notify.ts';

export { StorageStartError } from './postgres/open.ts';
export type { InstanceChannel } from './postgres/notify.ts';
export { NewerDatabaseError } from './migrations.ts';
export { isPostgresUrl, redactedUrl } from './postgres/url.ts';

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
  /**
   * PostgreSQL only: a fresh database copied from a migrated template on the server the URL names,
   * dropped at close (tests and benches: the counterpart of SQLite's ':memory:', db/postgres/throwaway.ts).
   */
  throwaway?: boolean;
  /** With `throwaway`: every open with this name gets the same database (tests restarting an app on "one file"). */
  throwawayName?: string;
  /** PostgreSQL only: connections in this instance's pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
}

export interface OpenedDatabase {
  db: Kysely<DB>;
  /** Which storage this is. */
  readonly dialect: 'sqlite' | 'postgres';
  /** The raw SQLite handle, for integrity checks in tests and the benchmarks' baselines (null on PostgreSQL). */
  sqlite: SqliteHandle | null;
  /** The PostgreSQL URL this storage uses (a throwaway database's own), null on SQLite. */
  readonly url: string | null;
  /**
   * PostgreSQL: this instance's announcement channel to the others (LISTEN on one dedicated
   * connection, db/postgres/notify.ts), opened on the first call and shared by every caller (the
   * commit bridge, presence), closed with the storage. Null on SQLite (one process).
   */
  openInstanceChannel: (() => Promise<InstanceChannel>) | null;
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

/**
 * Where the storage is: DATABASE_URL when set (it must be a PostgreSQL URL), else the SQLite file.
 * Throws StorageStartError for a DATABASE_URL that is not usable (never showing its password).
 */
export function storageLocation(config: { databaseUrl?: string | null; databaseFile: string }): string {
  if (!config.databaseUrl) return config.databaseFile;
  const problem = postgresUrlProblem(config.databaseUrl);
  if (problem) throw new StorageStartError(problem);
  return config.databaseUrl;
}

/**
 * Opens the storage at `location`: a SQLite file (or ':memory:'), or a postgres:// / postgresql://
 * URL. A PostgreSQL location that is malformed or unreachable throws StorageStartError, whose
 * message names what is wrong and never the password; a database made by a newer version throws
 * NewerDatabaseError (migrations.ts).
 */
export async function openDatabase(location: string, options: StorageOptions = {}): Promise<OpenedDatabase> {
  return isPostgresUrl(location) ? openPostgres(location, options) : openSqliteStorage(location, options);
}

function postgresKysely(url: string, poolSize?: number) {
  const pool = createPool(url, { max: poolSize });
  const db = new Kysely<DB>({
    dialect: withSharedTransactions(serialisedWriteTransactions(new PostgresDialect({ pool }))),
    plugins: [new CamelCasePlugin()],
  });
  return { pool, db };
}

async function openPostgres(location: string, options: StorageOptions): Promise<OpenedDatabase> {
  let url = location;
  let drop: (() => Promise<void>) | null = null;
  if (options.throwaway) {
    const made = await createThrowawayDatabase(location, MIGRATION_NAMES, async (templateUrl) => {
      const { db } = postgresKysely(templateUrl, 1);
      try {
        await migrateToLatest(db, 'postgres');
      } finally {
        await db.destroy();
      }
    }, options.throwawayName).catch((error: unknown) => {
      throw new StorageStartError(`Cannot create a throwaway database on ${redactedUrl(location)}: ${(error as Error).message}`);
    });
    url = made.url;
    drop = made.drop;
  }
  const { pool, db } = postgresKysely(url, options.poolSize);
  try {
    await checkReachable(pool, url);
    await migrateToLatest(db, 'postgres');
  } catch (error) {
    await db.destroy();
    await drop?.();
    throw error;
  }
  let channel: Promise<InstanceChannel> | null = null;
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    url,
    openInstanceChannel() {
      channel ??= openInstanceChannel(url, pool).catch((error: unknown) => {
        channel = null; // the next caller tries again
        throw error;
      });
      return channel;
    },
    checkpointer: null,
    // Several instances share the database: every write commits alone (exclusiveProcess is always off).
    groupCommit: new GroupCommit(db, ONE_WRITE_PER_COMMIT),
    exclusiveProcess: false,
    backup: async () => {
      throw new Error('On PostgreSQL, back the database up with pg_dump (README, "Running on PostgreSQL")');
    },
    async close() {
      await channel?.then((opened) => opened.close(), () => undefined);
      await db.destroy();
      await drop?.();
    },
  };
}

async function openSqliteStorage(file: string, options: StorageOptions): Promise<OpenedDatabase> {
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
    dialect: 'sqlite',
    sqlite,
    url: null,
    openInstanceChannel: null,
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
