/**
 * The statements whose SQL is written by hand (raw `sql` fragments, upserts, RETURNING), each
 * behind a name. They are written for SQLite (3.35+); every one also runs on PostgreSQL as it
 * stands, but a second storage would review them here, in one place, rather than across the
 * domain code (db/README.md).
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import { runPrepared } from '../prepared.ts';
import { PREPARED_KEYS } from '../prepared-keys.ts';
import type { DB, IdempotencyKeysTable, RevisionsTable, WritingStatsTable } from '../tables.ts';

/** Takes the next global seq in the write's transaction (an atomic increment that answers the new value). */
export async function incrementSeq(trx: Kysely<DB>): Promise<number> {
  const [row] = await runPrepared(
    trx,
    PREPARED_KEYS.nextSeq,
    (q) => q.updateTable('syncState').set({ value: sql`value + 1` }).where('name', '=', 'seq').returning('value'),
    {},
  );
  if (!row) throw new Error('sync_state has no seq row');
  return Number((row as { value: number }).value);
}

/** A revision snapshot's columns (every one given: a prepared shape binds them all). */
export type RevisionValues = Required<Insertable<RevisionsTable>>;

/** Stores a revision snapshot; a row written twice at one rev keeps its last state. (A CASE, not SQLite's two-argument max(): it runs on PostgreSQL too.) */
export async function upsertRevision(trx: Kysely<DB>, values: RevisionValues): Promise<void> {
  await runPrepared(
    trx,
    PREPARED_KEYS.writeSnapshot,
    (q, v: RevisionValues) =>
      q
        .insertInto('revisions')
        .values({
          entity: v.entity,
          entityId: v.entityId,
          rev: v.rev,
          seriesId: v.seriesId,
          userId: v.userId,
          snapshot: v.snapshot,
          createdAt: v.createdAt,
          inHistory: v.inHistory,
        })
        // Written twice at one rev: the last state, listed when either write changed the text.
        .onConflict((oc) =>
          oc.columns(['entity', 'entityId', 'rev']).doUpdateSet({ snapshot: v.snapshot, userId: v.userId, inHistory: sql<number>`case when excluded.in_history > revisions.in_history then excluded.in_history else revisions.in_history end` }),
        ),
    values,
  );
}

export type IdempotencyRecord = Insertable<IdempotencyKeysTable>;

/** Records an answer under its Idempotency-Key unless one is recorded already (the first answer stands). */
export async function insertIdempotencyRecordIfAbsent(trx: Kysely<DB>, record: IdempotencyRecord): Promise<void> {
  await trx.insertInto('idempotencyKeys').values(record).onConflict((oc) => oc.doNothing()).execute();
}

/** One edit's words for a writing day: the row's id and stamps if it is the day's first, and what to add. */
export type WritingDayAddition = Pick<WritingStatsTable, 'id' | 'rev' | 'userId' | 'day' | 'wordsWritten' | 'wordsRemoved' | 'wordsPasted'> & { now: string };

/**
 * Adds one edit's words to the author's row of that day, creating it on the day's first edit, in
 * one atomic upsert (stamped with the write's seq); answers the day's written words afterwards.
 */
export async function addToWritingDay(trx: Kysely<DB>, values: WritingDayAddition): Promise<number> {
  const [row] = await runPrepared(
    trx,
    PREPARED_KEYS.addToWritingDay,
    (q, v: WritingDayAddition) =>
      q
        .insertInto('writingStats')
        .values({
          id: v.id,
          rev: v.rev,
          createdAt: v.now,
          updatedAt: v.now,
          deletedAt: null,
          userId: v.userId,
          day: v.day,
          wordsWritten: v.wordsWritten,
          wordsRemoved: v.wordsRemoved,
          wordsPasted: v.wordsPasted,
          edits: 1,
        })
        .onConflict((oc) =>
          oc.columns(['userId', 'day']).doUpdateSet((eb) => ({
            wordsWritten: eb('writingStats.wordsWritten', '+', eb.ref('excluded.wordsWritten')),
            wordsRemoved: eb('writingStats.wordsRemoved', '+', eb.ref('excluded.wordsRemoved')),
            wordsPasted: eb('writingStats.wordsPasted', '+', eb.ref('excluded.wordsPasted')),
            edits: eb('writingStats.edits', '+', eb.ref('excluded.edits')),
            rev: eb.ref('excluded.rev'),
            updatedAt: eb.ref('excluded.updatedAt'),
          })),
        )
        .returning('wordsWritten'),
    values,
  );
  if (!row) throw new Error('the writing day upsert answered no row');
  return Number((row as { wordsWritten: number }).wordsWritten);
}

/**
 * Adds one to the throttle count of `key` in a fixed window starting at its first hit, in one
 * atomic upsert; answers the new count and window start.
 */
export async function countThrottleHit(db: Kysely<DB>, key: string, now: number, windowMs: number): Promise<{ failures: number; windowStartedAt: number }> {
  const expired = sql<boolean>`login_throttle.window_started_at <= ${now - windowMs}`;
  const row = await db
    .insertInto('loginThrottle')
    .values({ key, failures: 1, windowStartedAt: now, lockedUntil: 0 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when ${expired} then 1 else login_throttle.failures + 1 end`,
        windowStartedAt: sql<number>`case when ${expired} then ${now} else login_throttle.window_started_at end`,
      }),
    )
    .returning(['failures', 'windowStartedAt'])
    .executeTakeFirstOrThrow();
  return { failures: Number(row.failures), windowStartedAt: Number(row.windowStartedAt) };
}

/**
 * SQLite's `PRAGMA data_version`: changes whenever ANOTHER connection (another process: the
 * operator command, a second server) commits to the file, never for this connection's own commits.
 * Cheap (no I/O beyond the WAL index). PostgreSQL has no equivalent: there LISTEN/NOTIFY carries
 * the commits of other instances.
 */
export async function dataVersion(db: Kysely<DB>): Promise<number> {
  // One column, whatever the camel-case plugin names it.
  const { rows } = await sql<Record<string, unknown>>`PRAGMA data_version`.execute(db);
  return Number(Object.values(rows[0] ?? {})[0] ?? 0);
}
