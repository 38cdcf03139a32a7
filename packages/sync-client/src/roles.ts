/**
 * The author's role in each series (docs/server.md#collaboration): kept in Dexie from the server's
 * GET /api/collaboration/series, so a viewer's screens are read-only offline too and turn so at
 * once when a role change arrives (the app refreshes this list when the changes feed says a series
 * entered or left the author's scope — a role change resends the series as an addition).
 *
 * The server enforces roles whatever this table says; here it only decides what to lock and show.
 */
import { type CollaborativeSeries, type SeriesRole, roleAllows } from '@chronicler/schema';
import type { ChroniclerDb, SeriesRoleRow } from './db.ts';

/** Replaces the stored roles with the server's list (series no longer listed are forgotten). */
export async function storeSeriesRoles(db: ChroniclerDb, list: readonly CollaborativeSeries[]): Promise<void> {
  const rows: SeriesRoleRow[] = list.map((s) => ({ seriesId: s.id, role: s.role, ownerId: s.ownerId, ownerName: s.ownerName }));
  await db.transaction('rw', db.seriesRoles, async () => {
    await db.seriesRoles.clear();
    await db.seriesRoles.bulkPut(rows);
  });
}

/**
 * The author's role in a series: owner when the local series row names them, else the stored role;
 * null when unknown (a series made on this device, or roles not fetched yet) — then nothing is locked.
 */
export async function seriesRoleOf(db: ChroniclerDb, seriesId: string): Promise<SeriesRole | null> {
  const series = await db.series.get(seriesId);
  if (series && series.ownerId === db.userId) return 'owner';
  const row = await db.seriesRoles.get(seriesId);
  return row?.role ?? null;
}

/** Whether the author may change the series' content (unknown roles may: the server is the judge). */
export function canEditWith(role: SeriesRole | null): boolean {
  return role === null || roleAllows(role, 'edit');
}
