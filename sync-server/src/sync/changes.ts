/**
 * The changes feed (docs/sync-protocol.md#pull-the-changes-feed): from ONE consistent read, the
 * latest state of every row changed after a cursor in the series the caller may see, tombstones
 * included.
 *
 * Scope: series the caller owns (deleted ones too — their tombstones must travel) plus series with a
 * live membership row for the caller; and the caller's own user-scoped rows (USER_SCOPED_KINDS:
 * their record, statistics, entitlements …), by `user_id`, which never enter or leave the scope. A membership that went live after the cursor is a scope
 * addition: the client never had that series, so ALL its rows are sent, as if they had changed at
 * the membership's seq. A membership tombstoned after the cursor is a scope removal.
 *
 * Paging never splits a seq: each row counts at its "effective seq" (its rev; for a newly added
 * series max(rev, membership seq)); the cut-off is the first seq at which the running count
 * reaches the limit, and every row up to and including that seq is in the page. A single seq
 * larger than the limit goes whole. The cursor after the last page is the current global seq, so
 * a client that is up to date never rescans.
 *
 * Cost: the counting pass reads only (series_id, rev) through the (series_id, rev) indexes (user
 * rows: (user_id, rev), all user kinds in one statement) and groups by rev; rows are then read
 * once, in one query per kind that has any, with no per-row queries. Every query is a prepared
 * shape run in one read snapshot (db/read-snapshot.ts), and the series kinds' answers come from
 * the read cache until the next write: after a poke, the members of a series pull the same rows.
 */
import type { Expression, ExpressionBuilder, Kysely, RawBuilder, SqlBool } from 'kysely';
import { ENTITY_KINDS, type EntityKind, isUserScopedKind } from '@chronicler/schema';
import type { DB } from '../db/tables.ts';
import { rowJsonBytes } from '../db/dialect.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_FAMILIES, PREPARED_KEYS } from '../db/prepared-keys.ts';
import { inReadSnapshot } from '../db/read-snapshot.ts';
import { ENTITIES } from '../entities/registry.ts';
import { wireStorage } from '../entities/wire.ts';

/** Each synced kind as the feed reads it: its table, and the column naming its series or its author. */
interface FeedKind {
  kind: EntityKind;
  table: string;
  /** Series-scoped kinds are read by the caller's series; user-scoped kinds by `userId` = the caller. */
  scope: 'series' | 'user';
  seriesColumn: 'id' | 'seriesId';
  /** The row in its wire shape (registry toWire), as JSON bytes made by the database. */
  json: (db: Kysely<any>) => RawBuilder<Uint8Array>;
}
const FEED_KINDS: readonly FeedKind[] = ENTITY_KINDS.map((kind) => ({
  kind,
  table: ENTITIES[kind].table,
  scope: isUserScopedKind(kind) ? 'user' : 'series',
  seriesColumn: kind === 'series' ? 'id' : 'seriesId',
  json: rowJsonBytes(wireStorage(kind)),
}));
const USER_FEED_KINDS = FEED_KINDS.filter((kind) => kind.scope === 'user');

export async function currentSeq(db: Kysely<DB>): Promise<number> {
  const [row] = await runPrepared(db, PREPARED_KEYS.feedSeq, (q: Kysely<DB>, v: { name: string }) => q.selectFrom('syncState').select('value').where('name', '=', v.name), { name: 'seq' });
  if (!row) throw new Error('The sync state has no seq');
  return Number(row.value);
}

/** Where the caller's scope stood relative to the cursor. */
interface ScopeAtCursor {
  /** The caller: their user-scoped rows with rev > since are news. */
  userId: string;
  /** In scope at `since` and still now: rows with rev > since are news. */
  kept: string[];
  /** Entered the scope after `since`, with the seq of the membership write. */
  added: Map<string, number>;
  /** Left the scope after `since`, with the seq of the membership tombstone. */
  removed: Map<string, number>;
}

async function scopeAtCursor(trx: Kysely<DB>, userId: string, since: number): Promise<ScopeAtCursor> {
  const owned = await runPrepared(trx, PREPARED_KEYS.feedOwnedSeries, (q: Kysely<DB>, v: { userId: string }) => q.selectFrom('series').select('id').where('ownerId', '=', v.userId), { userId });
  const memberships = await runPrepared(
    trx,
    PREPARED_KEYS.feedMemberships,
    (q: Kysely<DB>, v: { userId: string }) => q.selectFrom('seriesMembers').select(['seriesId', 'rev', 'deletedAt']).where('userId', '=', v.userId),
    { userId },
  );
  const kept = new Set(owned.map((r) => r.id));
  const added = new Map<string, number>();
  const removed = new Map<string, number>();
  for (const m of memberships) {
    // The owner's rights come from ownership; a membership row of the owner changes nothing.
    if (kept.has(m.seriesId)) continue;
    const rev = Number(m.rev);
    if (m.deletedAt !== null) {
      if (rev > since) removed.set(m.seriesId, rev);
    } else if (rev > since) {
      // Any write of a live membership after the cursor (join, re-join, role change) resends the
      // series: the row keeps only its latest state, so "was it live at the cursor?" is unknowable.
      added.set(m.seriesId, rev);
    } else {
      kept.add(m.seriesId);
    }
  }
  return { userId, kept: [...kept], added, removed };
}

type AnyDb = Kysely<any>;
type AnyEb = ExpressionBuilder<any, any>;

/**
 * The scope as bound values of a prepared shape (db/prepared.ts): `k0…` the kept series, `a0…` the
 * added ones and `j0…` their membership seqs. The shape depends on how many there are, never on the
 * ids, so a member's pulls reuse the SQL compiled for their first: Kysely building and compiling
 * the ~25 queries of a page cost ~2.5 ms for a member of 20 series (bench/JOURNAL.md, "the
 * member's pull, and where the write and feed targets stand"),
 * ten times what SQLite takes to run them.
 */
type ScopeValues = Record<string, string | number>;

interface ScopeShape {
  kept: number;
  added: number;
}

function scopeValues(scope: ScopeAtCursor, since: number): ScopeValues {
  const values: ScopeValues = { since, userId: scope.userId };
  scope.kept.forEach((id, i) => (values[`k${i}`] = id));
  [...scope.added].forEach(([id, seq], i) => {
    values[`a${i}`] = id;
    values[`j${i}`] = seq;
  });
  return values;
}

const placeholders = (v: ScopeValues, prefix: string, n: number) => Array.from({ length: n }, (_, i) => v[`${prefix}${i}`]!);

/** `column IN (values)` without tripping on an empty list or on the driver's parameter limit. */
function inList(eb: AnyEb, column: string, values: readonly unknown[]): Expression<SqlBool> {
  if (values.length === 0) return eb.lit(false);
  const CHUNK = 500;
  if (values.length <= CHUNK) return eb(column, 'in', values);
  const parts: Expression<SqlBool>[] = [];
  for (let i = 0; i < values.length; i += CHUNK) parts.push(eb(column, 'in', values.slice(i, i + CHUNK)));
  return eb.or(parts);
}

/**
 * Rows whose effective seq is after `since` (and at most `upTo` on the reading pass). Counting
 * pass: rows of an added series count at their own rev after the join (the rest are counted in
 * one lump); reading pass: the whole added series.
 */
function changedSince(eb: AnyEb, kind: FeedKind, shape: ScopeShape, v: ScopeValues, pass: 'count' | 'read') {
  const upTo: Expression<SqlBool>[] = pass === 'read' ? [eb('rev', '<=', v.upTo)] : [];
  if (kind.scope === 'user') return eb.and([eb('userId', '=', v.userId), eb('rev', '>', v.since), ...upTo]);
  const col = kind.seriesColumn;
  const parts: Expression<SqlBool>[] = [];
  if (shape.kept > 0) parts.push(eb.and([inList(eb, col, placeholders(v, 'k', shape.kept)), eb('rev', '>', v.since)]));
  for (let i = 0; i < shape.added; i++) {
    parts.push(pass === 'count' ? eb.and([eb(col, '=', v[`a${i}`]), eb('rev', '>', v[`j${i}`])]) : eb(col, '=', v[`a${i}`]));
  }
  const scoped = parts.length === 1 ? parts[0]! : eb.or(parts);
  return upTo.length > 0 ? eb.and([scoped, ...upTo]) : scoped;
}

const shapeKey = (kind: FeedKind, shape: ScopeShape) => (kind.scope === 'user' ? kind.kind : `${kind.kind} kept=${shape.kept} added=${shape.added}`);

interface Cut {
  cursor: number;
  hasMore: boolean;
  /** Kinds with any row counted: the others have nothing to read (most of a pull's kinds). */
  kindsWithRows: Set<EntityKind>;
}

/**
 * Chooses the page's last seq: the first seq at which the running count of changed rows (plus
 * scope events) reaches `limit`.
 */
async function chooseCut(trx: AnyDb, scope: ScopeAtCursor, since: number, limit: number, globalSeq: number): Promise<Cut> {
  const countAt = new Map<number, number>();
  const add = (seq: number, n: number) => countAt.set(seq, (countAt.get(seq) ?? 0) + n);
  const kindsWithRows = new Set<EntityKind>();

  for (const seq of scope.removed.values()) add(seq, 1);
  for (const seq of scope.added.values()) add(seq, 1);
  const anyScope = scope.kept.length > 0 || scope.added.size > 0;
  const shape: ScopeShape = { kept: scope.kept.length, added: scope.added.size };
  // Up to date (since = the global seq): nothing of the caller's can be newer.
  if (since >= globalSeq) return { cursor: globalSeq, hasMore: false, kindsWithRows };
  // `limit` distinct seqs hold at least `limit` rows, so the cut falls at or before the last of
  // them; one more tells whether anything lies beyond it.
  const values = { ...scopeValues(scope, since), limit: limit + 1 };

  // The caller's own rows: they rarely change, and they cannot come from the read cache (another
  // process may write them), so every member's pull pays for them. One statement asks which
  // user-scoped kinds have anything newer (an index seek each, ~5 µs); only those are counted,
  // in ONE statement (the grouped count costs ~50 µs even when it finds nothing).
  const userValues = { userId: scope.userId, since };
  const [news] = await runPrepared(
    trx,
    PREPARED_KEYS.feedUserKindsWithNews,
    (q, v: typeof userValues) =>
      q.selectNoFrom((eb) =>
        USER_FEED_KINDS.map((kind, i) =>
          eb
            .exists(eb.selectFrom(kind.table).select(eb.lit(1).as('one')).where('userId', '=', v.userId).where('rev', '>', v.since))
            .as(`k${i}`),
        ),
      ),
    userValues,
  );
  const newsKinds = USER_FEED_KINDS.filter((_, i) => Number((news as Record<string, unknown> | undefined)?.[`k${i}`] ?? 0) !== 0);
  const userGroups =
    newsKinds.length === 0
      ? []
      : await runPrepared(
          trx,
          PREPARED_FAMILIES.feedCountUserKinds(newsKinds.map((kind) => kind.kind)),
          (q, v: { userId: string; since: number; limit: number }) => {
            const parts = newsKinds.map((kind, i) =>
              q
                .selectFrom(
                  q
                    .selectFrom(kind.table)
                    .select((eb) => [eb.val(kind.kind).as('kind'), 'rev', eb.fn.countAll<number>().as('n')])
                    .where('userId', '=', v.userId)
                    .where('rev', '>', v.since)
                    .groupBy('rev')
                    .orderBy('rev')
                    .limit(v.limit)
                    .as(`k${i}`),
                )
                .selectAll(),
            );
            return parts.slice(1).reduce((union, part) => union.unionAll(part), parts[0]!);
          },
          { ...userValues, limit: limit + 1 },
        );
  for (const g of userGroups as { kind: EntityKind; rev: number; n: number }[]) {
    add(Number(g.rev), Number(g.n));
    kindsWithRows.add(g.kind);
  }

  for (const kind of FEED_KINDS) {
    if (kind.scope === 'user' || !anyScope) continue;
    const groups = await runPrepared(
      trx,
      PREPARED_FAMILIES.feedCount(shapeKey(kind, shape)),
      (q, v: typeof values) =>
        q
          .selectFrom(kind.table)
          .select((eb) => ['rev', eb.fn.countAll<number>().as('n')])
          .where((eb) => changedSince(eb, kind, shape, v, 'count'))
          .groupBy('rev')
          .orderBy('rev')
          .limit(v.limit),
      values,
      // Members of a series pull the same rows after each poke: answered from memory until the
      // next write (the read cache). User rows are not: another process may write them.
      { cached: true },
    );
    for (const g of groups as { rev: number; n: number }[]) add(Number(g.rev), Number(g.n));
    if (groups.length > 0) kindsWithRows.add(kind.kind);

    for (const [seriesId, joinedAt] of scope.added) {
      const [lump] = await runPrepared(
        trx,
        PREPARED_FAMILIES.feedLump(kind.kind),
        (q, v: { seriesId: string; joinedAt: number }) =>
          q
            .selectFrom(kind.table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(kind.seriesColumn, '=', v.seriesId)
            .where('rev', '<=', v.joinedAt),
        { seriesId, joinedAt },
        { cached: true },
      );
      const n = Number((lump as { n?: number } | undefined)?.n ?? 0);
      add(joinedAt, n);
      if (n > 0) kindsWithRows.add(kind.kind);
    }
  }

  const seqs = [...countAt.keys()].sort((a, b) => a - b);
  let running = 0;
  for (let i = 0; i < seqs.length; i++) {
    running += countAt.get(seqs[i]!)!;
    if (running >= limit) {
      return i < seqs.length - 1 ? { cursor: seqs[i]!, hasMore: true, kindsWithRows } : { cursor: globalSeq, hasMore: false, kindsWithRows };
    }
  }
  return { cursor: globalSeq, hasMore: false, kindsWithRows };
}

const bytes = (text: string) => Buffer.from(text, 'utf8');
const COMMA = bytes(',');

/**
 * One page of the feed as the JSON text of a ChangesResponse, read in one transaction. Rows are
 * serialised by the database (rowJsonBytes) in the registry's wire shape and concatenated.
 */
export async function readChangesJson(db: Kysely<DB>, userId: string, since: number, limit: number): Promise<Buffer> {
  return inReadSnapshot(db, async (trx) => {
    const globalSeq = await currentSeq(trx);
    const scope: ScopeAtCursor =
      since >= globalSeq ? { userId, kept: [], added: new Map(), removed: new Map() } : await scopeAtCursor(trx, userId, since);
    const { cursor, hasMore, kindsWithRows } = await chooseCut(trx as AnyDb, scope, since, limit, globalSeq);

    // Additions and removals whose membership write is after the cut belong to a later page.
    const pageScope: ScopeAtCursor = {
      userId,
      kept: scope.kept,
      added: new Map([...scope.added].filter(([, seq]) => seq <= cursor)),
      removed: new Map([...scope.removed].filter(([, seq]) => seq <= cursor)),
    };
    const shape: ScopeShape = { kept: pageScope.kept.length, added: pageScope.added.size };
    const values = { ...scopeValues(pageScope, since), upTo: cursor };
    const parts: Buffer[] = [bytes('{"changes":{')];
    for (const [i, kind] of FEED_KINDS.entries()) {
      parts.push(bytes(`${i > 0 ? ',' : ''}${JSON.stringify(kind.kind)}:[`));
      if (kindsWithRows.has(kind.kind)) {
        const rows = await runPrepared(
          trx as AnyDb,
          PREPARED_FAMILIES.feedRead(shapeKey(kind, shape)),
          (q, v: typeof values) =>
            q
              .selectFrom(kind.table)
              .select(kind.json(q).as('json'))
              .where((eb) => changedSince(eb, kind, shape, v, 'read'))
              .orderBy('rev')
              .orderBy('id'),
          values,
          { cached: kind.scope === 'series' },
        );
        for (const [r, row] of rows.entries()) {
          if (r > 0) parts.push(COMMA);
          parts.push((row as { json: Buffer }).json);
        }
      }
      parts.push(bytes(']'));
    }
    const tail = { scopeAdded: [...pageScope.added.keys()], scopeRemoved: [...pageScope.removed.keys()], cursor, hasMore };
    parts.push(bytes(`},${JSON.stringify(tail).slice(1)}`));
    return Buffer.concat(parts);
  });
}
