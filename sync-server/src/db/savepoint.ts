/**
 * THE savepoint helper: a piece of a transaction that commits with it or rolls back alone. Used by
 * the group commit (one savepoint per member), the write path (the effect of a write whose 4xx is
 * recorded in its place) and the shared transaction (a nested transaction inside a batch).
 * SAVEPOINT / RELEASE / ROLLBACK TO are standard SQL (SQLite and PostgreSQL alike); `exec` runs one
 * statement without parameters or rows on the connection that holds the transaction.
 */
export type ExecStatement = (sql: string) => Promise<unknown>;

export async function openSavepoint(exec: ExecStatement, name: string): Promise<void> {
  await exec(`savepoint ${name}`);
}

/** Keeps the savepoint's work as part of the enclosing transaction. */
export async function releaseSavepoint(exec: ExecStatement, name: string): Promise<void> {
  await exec(`release savepoint ${name}`);
}

/** Undoes the savepoint's work, and ends it (ROLLBACK TO leaves it open otherwise). */
export async function rollbackSavepoint(exec: ExecStatement, name: string): Promise<void> {
  await exec(`rollback to savepoint ${name}`);
  await exec(`release savepoint ${name}`);
}

/** Runs `work` in savepoint `name`: released when it resolves, rolled back alone (and rethrown) when it throws. */
export async function inSavepoint<T>(exec: ExecStatement, name: string, work: () => Promise<T>): Promise<T> {
  await openSavepoint(exec, name);
  let value: T;
  try {
    value = await work();
  } catch (error) {
    await rollbackSavepoint(exec, name);
    throw error;
  }
  await releaseSavepoint(exec, name);
  return value;
}
