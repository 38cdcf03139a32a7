/**
 * Positions of books, chapters and timeline events (spec 001 §5): 1-based, in list order. Shared
 * so that the client's optimistic rows sit where the server will put them.
 */

/** Where a new row goes when no position is asked for: after the live ones (count + 1). */
export function nextPosition(liveCount: number): number {
  return liveCount + 1;
}

interface Positioned {
  id: string;
  position: number;
  createdAt: string;
}

/** List order: position, then creation time, then id (so equal positions still sort one way). */
export function byPosition(a: Positioned, b: Positioned): number {
  return a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/**
 * `live` (a group's live rows in list order) in the order a reorder asks for: the rows it names by
 * their sent position (ties keep the request's order), then those it does not name — added on
 * another device meanwhile — in their current order. Named ids that are not live rows of the group
 * (deleted since) are left out; an id named twice counts at its first mention (each row once).
 */
export function requestedOrder<T extends { id: string }>(live: readonly T[], items: readonly { id: string; position: number }[]): T[] {
  const byId = new Map(live.map((row) => [row.id, row]));
  const seen = new Set<string>();
  const named = items
    .filter((item) => !seen.has(item.id) && seen.add(item.id))
    .map((item, index) => ({ item, index, row: byId.get(item.id) }))
    .filter((entry): entry is typeof entry & { row: T } => entry.row !== undefined)
    .sort((a, b) => a.item.position - b.item.position || a.index - b.index)
    .map((entry) => entry.row);
  const namedIds = new Set(named.map((row) => row.id));
  return [...named, ...live.filter((row) => !namedIds.has(row.id))];
}

/** Positions 1..n for `ordered`, each row with its new position and whether that changes it. */
export function renumbered<T extends { position: number }>(ordered: readonly T[]): Array<{ row: T; position: number; changed: boolean }> {
  return ordered.map((row, i) => ({ row, position: i + 1, changed: row.position !== i + 1 }));
}
