/**
 * The statements whose SQL is written by hand (raw `sql` fragments, upserts, RETURNING), each
 * behind a name. They are written for SQLite (3.35+); every one also runs on PostgreSQL as it
 * stands, but a second storage would review them here, in one place, rather than across the
 * domain code (db/README.md).
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import { runPrepared } from '../prepared.ts';
import type { DB, IdempotencyKeysTable, RevisionsTable } from '../tables.ts';

/** Takes the next global seq in the write's transaction (an atomic increment that answers the new value). */
export async function incrementSeq(trx: Kysely<DB>): Promise<number> {
  const [row] = await runPrepared(
    trx,
    'nextSeq',
    (q) => q.updateTable('syncState').set({ value: sql`value + 1` }).where('name', '=', 'seq').returning('value'),
    {},
  );
  if (!row) throw new Error('sync_state has no seq row');
  return Number((row as { value: number }).value);
}

/** A revision snapshot's columns (every one given: a prepared shape binds them all). */
export type RevisionValues = Required<Insertable<RevisionsTable>>;

/** Stores a revision snapshot; a row written twice at one rev keeps its last state. */
export async function upsertRevision(trx: Kysely<DB>, values: RevisionValues): Promise<void> {
  await runPrepared(
    trx,
    'writeSnapshot',
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
          oc.columns(['entity', 'entityId', 'rev']).doUpdateSet({ snapshot: v.snapshot, userId: v.userId, inHistory: sql<number>`max(revisions.in_history, excluded.in_history)` }),
        ),
    values,
  );
}

export type IdempotencyRecord = Insertable<IdempotencyKeysTable>;

/** Records an answer under its Idempotency-Key unless one is recorded already (the first answer stands). */
export async function insertIdempotencyRecordIfAbsent(trx: Kysely<DB>, record: IdempotencyRecord): Promise<void> {
  await trx.insertInto('idempotencyKeys').values(record).onConflict((oc) => oc.doNothing()).execute();
}

/**
 * An idempotency record whose answer continues a revision snapshot: the record's own columns
 * (`response` being what follows the snapshot's text) and the snapshot it refers to.
 */
export type IdempotencyReference = Pick<IdempotencyKeysTable, 'userId' | 'key' | 'requestHash' | 'statusCode' | 'response' | 'createdAt'> &
  Pick<RevisionsTable, 'entity' | 'entityId' | 'rev' | 'snapshot'>;

/**
 * Records an answer by reference to its revision snapshot, only if that snapshot is stored with
 * exactly the text the answer begins with (INSERT … SELECT); answers whether it was recorded.
 */
export async function insertIdempotencyReference(trx: Kysely<DB>, values: IdempotencyReference): Promise<boolean> {
  const stored = await runPrepared(
    trx,
    'recordIdempotencyReference',
    (q, v: IdempotencyReference) =>
      q
        .insertInto('idempotencyKeys')
        .columns(['userId', 'key', 'requestHash', 'statusCode', 'response', 'createdAt', 'snapshotEntity', 'snapshotEntityId', 'snapshotRev'])
        .expression(
          q
            .selectFrom('revisions')
            .select([
              sql<string>`${v.userId}`.as('userId'),
              sql<string>`${v.key}`.as('key'),
              sql<string>`${v.requestHash}`.as('requestHash'),
              sql<number>`${v.statusCode}`.as('statusCode'),
              sql<string>`${v.response}`.as('response'),
              sql<string>`${v.createdAt}`.as('createdAt'),
              'entity',
              'entityId',
              'rev',
            ])
            .where('entity', '=', v.entity)
            .where('entityId', '=', v.entityId)
            .where('rev', '=', v.rev)
            .where('snapshot', '=', v.snapshot),
        )
        .returning('key'),
    values,
  );
  return stored.length > 0;
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
