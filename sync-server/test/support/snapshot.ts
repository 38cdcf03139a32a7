/**
 * Whole-database snapshots, to prove a rejected call changed nothing. Bookkeeping that a
 * rejected call may legitimately write is left out: sessions (sliding expiry), the login
 * throttle, and idempotency records (a 4xx answer is recorded so a replay gets the same answer).
 */
import type { FastifyInstance } from 'fastify';

export const IGNORED_TABLES = new Set(['sessions', 'login_throttle', 'idempotency_keys', 'kysely_migration', 'kysely_migration_lock']);

/** table name → its rows as sorted JSON lines. */
export type DbSnapshot = Map<string, string[]>;

export async function snapshotDatabase(app: FastifyInstance): Promise<DbSnapshot> {
  const { db } = app.deps.database;
  const tables = await db.introspection.getTables();
  const snapshot: DbSnapshot = new Map();
  for (const table of tables) {
    if (table.isView || IGNORED_TABLES.has(table.name)) continue;
    const rows = await db.selectFrom(table.name as any).selectAll().execute();
    snapshot.set(table.name, rows.map((row) => JSON.stringify(row)).sort());
  }
  return snapshot;
}

export interface SnapshotDiff {
  /** Rows added or removed or changed (a changed row counts once per side). */
  changedRows: number;
  details: string[];
}

export function diffSnapshots(before: DbSnapshot, after: DbSnapshot): SnapshotDiff {
  const details: string[] = [];
  let changedRows = 0;
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name) ?? [];
    const now = after.get(name) ?? [];
    const wasSet = new Set(was);
    const nowSet = new Set(now);
    const gone = was.filter((row) => !nowSet.has(row));
    const added = now.filter((row) => !wasSet.has(row));
    changedRows += gone.length + added.length;
    for (const row of gone) details.push(`${name} - ${row.slice(0, 300)}`);
    for (const row of added) details.push(`${name} + ${row.slice(0, 300)}`);
  }
  return { changedRows, details };
}
