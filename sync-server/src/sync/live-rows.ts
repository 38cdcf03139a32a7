/**
 * The rows of one commit, carried by its poke (docs/sync-protocol.md#live-channel): after an
 * editor's save, the members of the series get the saved rows on their event stream and write them
 * into their IndexedDB at once, instead of each asking the changes feed for them. Twenty members
 * used to make twenty feed requests per save, queued on the server's one thread behind each other
 * (too slow for the live target of bench/README.md, `collab-live.ts`); now the rows are read once
 * per commit.
 *
 * A poke with rows never moves a device's cursor: the feed stays the one source of truth, and
 * whatever a device skips or misses (a stream that dropped, a series it does not have yet, a row
 * that changed again before this read) its next pull brings. So only what can be applied without
 * the feed is carried: rows of series kinds other than the series itself, at exactly the commit's
 * seq. A commit that wrote a series row (owner, deletion) or a membership (a scope change), or
 * whose rows are not all there any more, or that is too large, gets a plain poke, and the devices
 * pull as before.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { ENTITY_KINDS, type EntityKind, isUserScopedKind } from '@chronicler/schema';
import type { DB } from '../db/tables.ts';
import { rowJsonBytes } from '../db/dialect.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_FAMILIES } from '../db/prepared-keys.ts';
import { ENTITIES } from '../entities/registry.ts';
import { wireStorage } from '../entities/wire.ts';

/**
 * Past this many bytes of rows a commit goes as a plain poke: every member's stream would carry
 * it, and a pull reads it as well (a chapter of 5,000 words is ~30 KB).
 */
export const LIVE_ROWS_MAX_BYTES = 256 * 1024;

/** The kinds a poke may carry: every series-scoped kind but the series itself. */
const CARRIED = ENTITY_KINDS.filter((kind) => kind !== 'series' && !isUserScopedKind(kind)).map((kind) => ({
  kind,
  table: ENTITIES[kind].table,
  json: rowJsonBytes(wireStorage(kind)),
}));

/**
 * A poke with rows, as its SSE frame: `data: {"seq":N,"changes":{kind:[row…]}}` (a ChangesResponse's
 * `changes`, sparse) — made once per commit, the same bytes for every stream.
 */
export interface CommitRows {
  seq: number;
  frame: Buffer;
}

type Marker = 'series' | 'member';
interface Found {
  kind: EntityKind | Marker;
  json: Uint8Array | null;
}

/**
 * The rows commit `seq` wrote in `seriesIds`, as the JSON a poke carries; null when the commit
 * must be pulled instead (see above). One prepared statement per number of series, an index seek
 * on (series_id, rev) per kind.
 */
export async function readCommitRows(db: Kysely<DB>, seq: number, seriesIds: ReadonlySet<string>): Promise<CommitRows | null> {
  if (seriesIds.size === 0) return null;
  const ids = [...seriesIds];
  const values: Record<string, string | number> = { seq };
  ids.forEach((id, i) => (values[`s${i}`] = id));
  const found = (await runPrepared(
    db,
    PREPARED_FAMILIES.liveRows(ids.length),
    (q: Kysely<any>, v: typeof values) => {
      const inSeries = ids.map((_, i) => v[`s${i}`]!);
      const marker = (table: string, column: string, kind: Marker): SelectQueryBuilder<any, any, Found> =>
        q
          .selectFrom(table)
          .select((eb) => [eb.val(kind).as('kind'), eb.lit(null).as('json')])
          .where(column, 'in', inSeries)
          .where('rev', '=', v.seq!) as SelectQueryBuilder<any, any, Found>;
      const parts: SelectQueryBuilder<any, any, Found>[] = [];
      for (const carried of CARRIED) {
        parts.push(
          q
            .selectFrom(carried.table)
            .select((eb) => [eb.val(carried.kind).as('kind'), carried.json(q).as('json')])
            .where('seriesId', 'in', inSeries)
            .where('rev', '=', v.seq!) as SelectQueryBuilder<any, any, Found>,
        );
      }
      // The markers' untyped null json comes last: PostgreSQL types a UNION branch by branch, and a
      // null before any bytea column would make the column text.
      parts.push(marker('series', 'id', 'series'), marker('seriesMembers', 'seriesId', 'member'));
      return parts.slice(1).reduce((union, part) => union.unionAll(part), parts[0]!);
    },
    values,
  )) as Found[];

  if (found.length === 0) return null;
  const byKind = new Map<EntityKind, Uint8Array[]>();
  let bytes = 0;
  for (const row of found) {
    if (row.kind === 'series' || row.kind === 'member' || row.json === null) return null;
    bytes += row.json.byteLength;
    if (bytes > LIVE_ROWS_MAX_BYTES) return null;
    let rows = byKind.get(row.kind);
    if (!rows) byKind.set(row.kind, (rows = []));
    rows.push(row.json);
  }
  const parts: Uint8Array[] = [Buffer.from(`data: {"seq":${seq},"changes":{`)];
  let first = true;
  for (const [kind, rows] of byKind) {
    parts.push(Buffer.from(`${first ? '' : ','}${JSON.stringify(kind)}:[`));
    first = false;
    rows.forEach((json, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(json);
    });
    parts.push(CLOSE_ARRAY);
  }
  parts.push(CLOSE_TWO, END_OF_EVENT);
  return { seq, frame: Buffer.concat(parts) };
}

const COMMA = Buffer.from(',');
const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_TWO = Buffer.from('}}');
const END_OF_EVENT = Buffer.from('\n\n');
