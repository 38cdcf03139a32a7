/**
 * Many writes in ONE database transaction without changing the code that makes them
 * (docs/measurements.md#before-the-code: 500 writes in one transaction cost ~5× a raw insert, one
 * transaction each ~136×).
 *
 * `runInSharedTransaction(fn)` opens a scope (AsyncLocalStorage). Inside it, every query of this
 * database — route hooks, reads, runMutation — uses the one connection the scope holds, in one
 * open transaction; a nested `db.transaction()` becomes a SAVEPOINT that commits by RELEASE and
 * rolls back alone by ROLLBACK TO. Code outside the scope waits for the connection as usual, so
 * other requests never see the scope's uncommitted rows. `afterCommit` defers side effects (SSE
 * pokes) until the scope's transaction has really committed.
 *
 * The driver wrapper is generic Kysely (SAVEPOINT is standard SQL), installed by db/database.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type TransactionSettings,
} from 'kysely';
import { openSavepoint, releaseSavepoint, rollbackSavepoint } from './savepoint.ts';

interface SharedScope {
  driver?: ReentrantDriver;
  connection?: Promise<DatabaseConnection>;
  held?: DatabaseConnection;
  /** Open savepoints (nested transactions) inside the scope's transaction. */
  depth: number;
  ended: boolean;
  afterCommit: (() => void)[];
}

const scopes = new AsyncLocalStorage<SharedScope>();

const execOn = (connection: DatabaseConnection) => (text: string) => connection.executeQuery(CompiledQuery.raw(text));

class ReentrantDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  /** The scope of the running code, when this driver holds (or will hold) its connection. */
  private scope(): SharedScope | undefined {
    const scope = scopes.getStore();
    if (!scope || scope.ended || (scope.driver && scope.driver !== this)) return undefined;
    return scope;
  }

  private mine(connection: DatabaseConnection): SharedScope | undefined {
    const scope = this.scope();
    return scope?.held === connection ? scope : undefined;
  }

  // Not async: outside a scope (nearly every query) the inner driver's promise is handed through
  // without wrapping it in another.
  acquireConnection(): Promise<DatabaseConnection> {
    const scope = this.scope();
    if (!scope) return this.inner.acquireConnection();
    if (!scope.connection) {
      scope.driver = this;
      scope.connection = (async () => {
        const connection = await this.inner.acquireConnection();
        try {
          // A batch writes: it takes the write lock up front (db/sqlite/write-transactions.ts).
          await this.inner.beginTransaction(connection, { accessMode: 'read write' });
        } catch (error) {
          await this.inner.releaseConnection(connection);
          throw error;
        }
        scope.held = connection;
        return connection;
      })();
    }
    return scope.connection;
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    // The scope keeps its connection until it ends.
    if (this.mine(connection)) return Promise.resolve();
    return this.inner.releaseConnection(connection);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const scope = this.mine(connection);
    if (!scope) return this.inner.beginTransaction(connection, settings);
    scope.depth += 1;
    await openSavepoint(execOn(connection), `shared_${scope.depth}`);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const scope = this.mine(connection);
    if (!scope) return this.inner.commitTransaction(connection);
    await releaseSavepoint(execOn(connection), `shared_${scope.depth}`);
    scope.depth -= 1;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const scope = this.mine(connection);
    if (!scope) return this.inner.rollbackTransaction(connection);
    await rollbackSavepoint(execOn(connection), `shared_${scope.depth}`);
    scope.depth -= 1;
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** Commits (or rolls back) the scope's transaction and lets the connection go. */
  async end(scope: SharedScope, commit: boolean): Promise<void> {
    const connection = scope.held!;
    try {
      if (commit) await this.inner.commitTransaction(connection);
      else await this.inner.rollbackTransaction(connection);
    } catch (error) {
      if (commit) {
        await this.inner.rollbackTransaction(connection).catch(() => undefined);
      }
      throw error;
    } finally {
      await this.inner.releaseConnection(connection);
    }
  }
}

/** Wraps a dialect so its driver honours shared-transaction scopes. */
export function withSharedTransactions(dialect: Dialect): Dialect {
  return {
    createDriver: () => new ReentrantDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db: Kysely<any>) => dialect.createIntrospector(db),
  };
}

/**
 * Runs `fn` with every query of the database in one transaction: committed when `fn` resolves,
 * rolled back when it throws. Scopes do not nest (an inner call joins the outer scope).
 */
export async function runInSharedTransaction<T>(fn: () => Promise<T>): Promise<T> {
  if (scopes.getStore() && !scopes.getStore()!.ended) return fn();
  const scope: SharedScope = { depth: 0, ended: false, afterCommit: [] };
  const finish = async (commit: boolean) => {
    scope.ended = true;
    if (!scope.connection) return; // nothing was read or written
    await scope.connection;
    await scope.driver!.end(scope, commit);
  };
  let result: T;
  openScopes += 1;
  try {
    try {
      result = await scopes.run(scope, fn);
    } catch (error) {
      await finish(false).catch(() => undefined);
      throw error;
    }
    await finish(true);
  } finally {
    openScopes -= 1;
    // While enabled, AsyncLocalStorage (Node 20) hooks every promise in the process, about
    // tripling its cost: switch it off whenever no scope is open (the next run() enables it).
    if (openScopes === 0) scopes.disable();
  }
  for (const effect of scope.afterCommit) effect();
  return result;
}

let openScopes = 0;

/** True while the running code is inside a shared-transaction scope (its queries join that transaction). */
export function inSharedTransaction(): boolean {
  const scope = scopes.getStore();
  return scope !== undefined && !scope.ended;
}

/** Runs `effect` once the surrounding write is durable: now, or when the shared scope commits. */
export function afterCommit(effect: () => void): void {
  const scope = scopes.getStore();
  if (scope && !scope.ended) scope.afterCommit.push(effect);
  else effect();
}
