/**
 * Pokes on the live channel (docs/sync-protocol.md#live-channel): `{seq}` asks for a pull;
 * `{seq, changes}` also carries the rows the commit wrote (sync-server live-rows.ts), and the
 * leader writes them at once instead of pulling — a collaborator's save is on this device one event
 * after it is on the server.
 *
 * Carried rows never move the cursor: the changes feed stays the one source of truth, and its next
 * pull (a plain poke, a reconnect, focus, the minute timer, the pull after every push) brings again
 * whatever was carried, skipped here or missed. So a carried row is written only when it cannot be
 * wrong:
 * - the poke is newer than the cursor (a pull that already read past it brought the same or newer);
 * - the row is newer than this device's copy (rebase.ts applyServerRow: the server state under
 *   pending local work, which keeps that work on top, as a pull does);
 * - a row this device does not have yet is taken only when its series is here (a series that is
 *   arriving or leaving is the feed's to settle).
 */
import { type EntityKind, SERIES_CHILD_KINDS } from '@chronicler/schema';
import { type AnyRow, entityTable, seriesIdOfRow } from '../db.ts';
import { applyServerRow } from '../rebase.ts';
import type { EngineContext } from './context.ts';

export interface Poke {
  seq: number;
  /** The commit's rows by kind, when the poke carries them. */
  changes?: Partial<Record<EntityKind, AnyRow[]>>;
}

const CARRIED: ReadonlySet<string> = new Set(SERIES_CHILD_KINDS);

const isRow = (row: unknown): row is AnyRow =>
  typeof row === 'object' && row !== null && typeof (row as AnyRow).id === 'string' && typeof (row as AnyRow).rev === 'number';

/** An SSE `message` as a poke; null when it is not one (then the leader pulls to be safe). */
export function parsePoke(data: string | undefined): Poke | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data ?? 'null');
  } catch {
    return null;
  }
  const seq = (parsed as { seq?: unknown } | null)?.seq;
  if (typeof seq !== 'number') return null;
  const changes = (parsed as { changes?: unknown }).changes;
  if (typeof changes !== 'object' || changes === null) return { seq };
  const rows: Partial<Record<EntityKind, AnyRow[]>> = {};
  for (const [kind, list] of Object.entries(changes)) {
    // Only series kinds other than the series itself travel this way; anything else is the feed's.
    if (!CARRIED.has(kind) || !Array.isArray(list) || !list.every(isRow)) return { seq };
    rows[kind as EntityKind] = list;
  }
  return { seq, changes: rows };
}

/** Writes a poke's rows in one transaction; answers how many were written. */
export async function applyCarriedRows(ctx: EngineContext, poke: Required<Poke>): Promise<number> {
  const { db } = ctx;
  const kinds = Object.keys(poke.changes) as EntityKind[];
  if (kinds.length === 0) return 0;
  return db.transaction('rw', [...kinds, 'series', 'shadows', 'outbox', 'syncState'], async () => {
    const state = await db.syncState.get('state');
    if (!state || state.cursor >= poke.seq) return 0;
    let written = 0;
    for (const kind of kinds) {
      const rows = poke.changes[kind]!;
      const here = await entityTable(db, kind).bulkGet(rows.map((row) => row.id));
      const newSeries = [...new Set(rows.filter((_, i) => !here[i]).map((row) => seriesIdOfRow(kind, row)))].filter((id): id is string => id !== null);
      const seriesHere = new Set((await db.series.bulkGet(newSeries)).filter((s) => s !== undefined).map((s) => s.id));
      for (const [i, row] of rows.entries()) {
        if (!here[i] && !seriesHere.has(seriesIdOfRow(kind, row) ?? '')) continue;
        if (await applyServerRow(db, kind, row)) written += 1;
      }
    }
    return written;
  });
}
