/**
 * The SQLite storage's exclusive-process speed-ups on the read and write paths (db/README.md):
 * prepared statements run straight on the better-sqlite3 connection, and a cache of read results
 * that stays valid while this connection has written nothing. Both are enabled by db/database.ts
 * only when the storage's `exclusiveProcess` capability is on: the cache watches this connection's
 * writes only, so another process writing the same tables would leave it stale.
 */
import type Database from 'better-sqlite3';
import { CamelCasePlugin, CompiledQuery, type Kysely } from 'kysely';
import { setBounded } from '../bounded-map.ts';
import { noteWrite, writeCount } from './statement-cache.ts';

/** Statements kept at most (as many as db/prepared.ts keeps shapes). */
const MAX_STATEMENTS = 1000;

/** The plugin's own column-name rule, so direct rows have exactly the keys Kysely's would. */
class ColumnNames extends CamelCasePlugin {
  toProperty(column: string): string {
    return this.camelCase(column);
  }
}

interface DirectStatement {
  statement: Database.Statement;
  /** The row property of each result column, in order; null for a statement that returns no rows. */
  properties: string[] | null;
}

/**
 * Statements that skip Kysely's executor. Through the executor a query waits for the connection
 * mutex, passes three promises and the result plugins (~7-15 µs: more than SQLite takes to run
 * most of ours, bench/README.md). better-sqlite3 is synchronous, so nothing interleaves with a
 * statement run straight on the connection. Two cases are safe, and only those run directly:
 * - a SELECT on the root database while NO transaction is open on the connection: it sees exactly
 *   the committed database, as the executor's read would. While a transaction is open (a group
 *   commit between members, a batch request's shared transaction) it goes through the executor
 *   and waits for, or joins, that transaction — it never sees uncommitted writes;
 * - any statement on a group commit's transaction (db/group-commit.ts): the group holds the one
 *   connection and runs its members one at a time, so its statements are the only ones there.
 */
class DirectStatements {
  private readonly statements = new Map<string, DirectStatement>();
  private readonly names = new ColumnNames();

  /** Cached results: SQL → parameters → rows, the write count they were read at, and their size. */
  private readonly results = new Map<string, Map<string, { writes: number; rows: Record<string, unknown>[]; size: number }>>();
  private resultCount = 0;
  /** Characters of text the cached results hold, roughly their memory. */
  private resultSize = 0;

  constructor(readonly sqlite: Database.Database) {}

  /** The rows of a SELECT when no transaction is open, else undefined (use the executor). */
  read(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    if (this.sqlite.inTransaction) return undefined;
    return this.select(sql, parameters);
  }

  /**
   * read(), answered from memory while no statement that may change data has run since the same
   * read was made (statement-cache.ts counts them). Only this process's connection is watched:
   * for tables no other process writes (the story; the CLI writes users and sessions), which is
   * what the exclusive-process capability promises. The rows are shared between callers: read-only.
   * `inReadSnapshot`: the caller holds the connection in a transaction that only reads
   * (db/read-snapshot.ts), which sees the same committed state; a write transaction never caches,
   * since a result read after its writes would outlive a rollback.
   */
  readCached(sql: string, parameters: readonly unknown[], inReadSnapshot = false): Record<string, unknown>[] | undefined {
    if (this.sqlite.inTransaction !== inReadSnapshot) return undefined;
    const writes = writeCount(this.sqlite);
    let bySql = this.results.get(sql);
    const key = parameters.length === 1 ? String(parameters[0]) : parameters.map(String).join('\u0001');
    const hit = bySql?.get(key);
    if (hit && hit.writes === writes) return hit.rows;
    const rows = this.select(sql, parameters);
    const size = rows ? sizeToKeep(rows) : null;
    if (!rows || size === null) return rows;
    if (this.resultCount >= MAX_CACHED_RESULTS || this.resultSize + size > MAX_CACHED_SIZE) {
      this.forgetResults();
      bySql = undefined;
    }
    if (!bySql) this.results.set(sql, (bySql = new Map()));
    const replaced = bySql.get(key);
    if (replaced) this.resultSize -= replaced.size;
    else this.resultCount += 1;
    this.resultSize += size;
    bySql.set(key, { writes, rows, size });
    return rows;
  }

  private select(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    const entry = this.statement(sql);
    return entry.properties ? this.rows(entry, parameters) : undefined;
  }

  /** How many results are kept and their text size (for tests). */
  get cached(): { count: number; size: number } {
    return { count: this.resultCount, size: this.resultSize };
  }

  private forgetResults(): void {
    this.results.clear();
    this.resultCount = 0;
    this.resultSize = 0;
  }

  /** Runs any statement inside the open transaction: its rows, or [] for a write without RETURNING. */
  run(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    if (!this.sqlite.inTransaction) return undefined;
    const entry = this.statement(sql);
    if (!entry.statement.readonly) noteWrite(this.sqlite);
    if (entry.properties) return this.rows(entry, parameters);
    entry.statement.run(parameters);
    return [];
  }

  private rows({ statement, properties }: DirectStatement, parameters: readonly unknown[]): Record<string, unknown>[] {
    const rows = statement.all(parameters) as unknown[][];
    const out: Record<string, unknown>[] = new Array(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const values = rows[r]!;
      const row: Record<string, unknown> = {};
      for (let c = 0; c < properties!.length; c++) row[properties![c]!] = values[c];
      out[r] = row;
    }
    return out;
  }

  private statement(sql: string): DirectStatement {
    let entry = this.statements.get(sql);
    if (!entry) {
      const statement = this.sqlite.prepare(sql);
      // Raw rows (arrays): the keys are made once here, camelCased, instead of per row twice.
      const properties = statement.reader ? statement.raw(true).columns().map((c) => this.names.toProperty(c.name)) : null;
      setBounded(this.statements, sql, (entry = { statement, properties }), MAX_STATEMENTS);
    }
    return entry;
  }
}

/**
 * Root databases, group-commit transactions and read snapshots whose prepared statements may run
 * directly: `root` outside any transaction, `write` in a group commit's, `read` in a snapshot's.
 */
type HandleMode = 'root' | 'write' | 'read';
const directHandles = new WeakMap<Kysely<any>, { statements: DirectStatements; mode: HandleMode }>();

export function runDirect(db: Kysely<any>, sql: string, parameters: readonly unknown[], cached: boolean): Record<string, unknown>[] | undefined {
  const handle = directHandles.get(db);
  if (!handle) return undefined;
  const { statements, mode } = handle;
  if (mode === 'root') return cached ? statements.readCached(sql, parameters) : statements.read(sql, parameters);
  if (mode === 'read' && cached) return statements.readCached(sql, parameters, true);
  return statements.run(sql, parameters);
}

/** Results kept at most, and their text in all (~64 MB of UTF-16); all are dropped at once when
 * full (a write makes most of them stale anyway). */
const MAX_CACHED_RESULTS = 5000;
const MAX_CACHED_SIZE = 32 * 1024 * 1024;
/** A result holding more text than this (a long book's chapters as JSON) is not kept. */
const MAX_CACHED_RESULT_SIZE = 256 * 1024;

/** The characters of text in `rows` (numbers count 8), or null when too big to keep. */
function sizeToKeep(rows: Record<string, unknown>[]): number | null {
  if (rows.length > 100) return null;
  let size = 0;
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      // JSON bytes built by the database (the changes feed) weigh their length too.
      size += typeof value === 'string' ? value.length : value instanceof Uint8Array ? value.byteLength : 8;
    }
  }
  return size > MAX_CACHED_RESULT_SIZE ? null : size;
}

/**
 * Lets prepared SELECTs on the root database `db` run straight on `sqlite`, its one connection, and
 * those marked cached be answered from memory (db/database.ts, with exclusiveProcess on).
 */
export function enableDirectStatements(db: Kysely<any>, sqlite: Database.Database): void {
  directHandles.set(db, { statements: new DirectStatements(sqlite), mode: 'root' });
}

/**
 * Lets every prepared statement on `trx` — a transaction of `root` that holds its connection alone
 * until it ends, as a group commit's does — run straight on the connection. `read`: a transaction
 * that only reads (db/read-snapshot.ts), whose cached reads may be answered from memory.
 */
export function enableDirectStatementsIn(trx: Kysely<any>, root: Kysely<any>, mode: 'write' | 'read' = 'write'): void {
  const rootHandle = directHandles.get(root);
  if (rootHandle) directHandles.set(trx, { statements: rootHandle.statements, mode });
}

/** Runs SQL without parameters or rows (SAVEPOINT, RELEASE) on `db`: directly where allowed, else through Kysely. */
export async function execStatement(db: Kysely<any>, text: string): Promise<void> {
  const handle = directHandles.get(db);
  if (handle?.mode === 'write' && handle.statements.sqlite.inTransaction) {
    noteWrite(handle.statements.sqlite);
    handle.statements.sqlite.exec(text);
  }
  else await db.executeQuery(CompiledQuery.raw(text));
}

/** The cached results of the root database `db` (for tests). */
export function cachedResults(db: Kysely<any>): { count: number; size: number } {
  return directHandles.get(db)?.statements.cached ?? { count: 0, size: 0 };
}
