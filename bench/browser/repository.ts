/**
 * The server's own repository code, used straight (no HTTP, no routes, no engine): the seeding of
 * the sync benches and the baseline of the outbox flush. Every write is what runMutation's
 * handlers do — a fresh global seq (`nextSeq`), then `insertRow` / `updateRow` of
 * sync-server/src/entities/writes.ts, which stamp rev/timestamps, derive the word count and keep
 * the revision snapshot — so rows come out in exactly the shapes the server writes.
 */
import type { EntityKind } from '@chronicler/schema';
import {
  ENTITIES,
  type MutationContext,
  type NewRow,
  type OpenedDatabase,
  type RowPatch,
  insertRow,
  nextSeq,
  openDatabase,
  runInSharedTransaction,
  seriesIdOf,
  toColumns,
  toWire,
  updateRow,
} from '@chronicler/sync-server/repository';

export type { OpenedDatabase };
/** The server's Kysely handle (typed by its schema; kysely itself is not a bench dependency). */
type Db = OpenedDatabase['db'];
export { openDatabase };

/** One row write as a route handler would make it. */
export type RowWrite =
  | { op: 'insert'; kind: EntityKind; values: Record<string, unknown> & { id: string } }
  | { op: 'update'; kind: EntityKind; id: string; patch: Record<string, unknown> };

/**
 * How the writes are committed:
 * - 'one-commit': all in ONE database transaction, each write in its own nested transaction (a
 *   savepoint, as `POST /api/sync/batch` runs each entry) — the least any server must do to take
 *   these rows durably;
 * - 'commit-each': each write its own committed transaction, as one REST request per mutation.
 */
export type CommitMode = 'one-commit' | 'commit-each';

async function writeOne(db: Db, userId: string, write: RowWrite): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ctx: MutationContext = { trx, userId, seq: await nextSeq(trx), now: new Date().toISOString(), touch: () => undefined, touchUser: () => undefined };
    if (write.op === 'insert') await insertRow(ctx, write.kind, write.values as unknown as NewRow<EntityKind>);
    else await updateRow(ctx, write.kind, write.id, write.patch as RowPatch<EntityKind>);
  });
}

export async function applyWrites(db: Db, userId: string, writes: readonly RowWrite[], mode: CommitMode = 'one-commit'): Promise<void> {
  if (mode === 'commit-each') {
    for (const write of writes) await writeOne(db, userId, write);
    return;
  }
  await runInSharedTransaction(async () => {
    for (const write of writes) await writeOne(db, userId, write);
  });
}

/** Kysely's CamelCasePlugin naming: `seriesId` → `series_id`, `timelineEvents` → `timeline_events`. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Seeding only (never a baseline): the rows `insertRow` would store and answer — same derived
 * fields (`ENTITIES[kind].derive`), same column encoding (`toColumns`), same revision snapshot
 * (`toWire`), a seq per row as if each were created by its own request — written with raw
 * prepared statements in ONE transaction, several times faster than the Kysely path, so a
 * 2-million-word series is ready in seconds. Answers each row as the server would answer it.
 */
export function seedInserts(database: OpenedDatabase, userId: string, writes: readonly RowWrite[]): Record<string, unknown>[] {
  const sqlite = database.sqlite!; // the benches seed the SQLite storage
  const statements = new Map<string, ReturnType<typeof sqlite.prepare>>();
  const insert = (table: string, row: Record<string, unknown>) => {
    const columns = Object.keys(row);
    const key = `${table}(${columns.join(',')})`;
    let statement = statements.get(key);
    if (!statement) {
      statement = sqlite.prepare(`INSERT INTO ${snake(table)} (${columns.map(snake).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      statements.set(key, statement);
    }
    statement.run(columns.map((c) => row[c]));
  };
  const answers: Record<string, unknown>[] = [];
  sqlite.transaction(() => {
    let seq = Number((sqlite.prepare(`SELECT value FROM sync_state WHERE name = 'seq'`).get() as { value: number }).value);
    const start = Date.now();
    for (const write of writes) {
      if (write.op !== 'insert') throw new Error('seedInserts only inserts');
      seq += 1;
      const now = new Date(start + seq).toISOString();
      const derive = ENTITIES[write.kind].derive;
      const stamped = { ...write.values, rev: seq, createdAt: now, updatedAt: now, deletedAt: null };
      const full = derive ? { ...stamped, ...derive(stamped, null) } : stamped;
      insert(ENTITIES[write.kind].table, toColumns(write.kind, full));
      const row = toWire(write.kind, full);
      const seriesId = seriesIdOf(write.kind, row as { id: string; seriesId?: string });
      insert('revisions', { entity: write.kind, entityId: row.id, rev: seq, seriesId, userId, snapshot: JSON.stringify(row), createdAt: now });
      answers.push(row as Record<string, unknown>);
    }
    sqlite.prepare(`UPDATE sync_state SET value = ? WHERE name = 'seq'`).run(seq);
  })();
  return answers;
}

/** Gives the author a plan with the timeline and no row limits (a fresh account has apprentice's 10 characters). */
export async function upgradePlan(db: Db, userId: string, plan = 'loremaster'): Promise<void> {
  await db.updateTable('users').set({ plan }).where('id', '=', userId).execute();
}
