/**
 * Which rows changed, from Dexie's `storagemutated` event: it fires for every committed write in
 * this context and, through a BroadcastChannel, in every other tab and worker of the origin — so
 * the index hears the author's saves and the leader tab's pulls alike. Each event names the
 * primary keys written per table; a range it cannot name as keys (a table cleared) reads as
 * "everything".
 */
import Dexie from 'dexie';

export type TableChanges = Map<string, Set<string> | 'all'>;

interface RangeNode {
  from?: unknown;
  to?: unknown;
  l?: RangeNode | null;
  r?: RangeNode | null;
}

/** The changes an event names in database `dbName` (tables' primary keys only). */
export function changesOf(parts: Record<string, unknown>, dbName: string): TableChanges {
  const changes: TableChanges = new Map();
  if ('all' in parts) {
    changes.set('*', 'all');
    return changes;
  }
  const prefix = `idb://${dbName}/`;
  for (const [part, ranges] of Object.entries(parts)) {
    if (!part.startsWith(prefix) || !part.endsWith('/')) continue;
    const table = part.slice(prefix.length, -1);
    if (!table || table.includes('/')) continue;
    const keys = new Set<string>();
    let all = false;
    walk(ranges as RangeNode, (from, to) => {
      if (typeof from === 'string' && from === to) keys.add(from);
      else all = true;
    });
    const known = changes.get(table);
    if (all || known === 'all') changes.set(table, 'all');
    else changes.set(table, known ? new Set([...known, ...keys]) : keys);
  }
  return changes;
}

function walk(node: RangeNode | null | undefined, visit: (from: unknown, to: unknown) => void): void {
  if (!node || !('from' in node)) return;
  walk(node.l, visit);
  visit(node.from, node.to);
  walk(node.r, visit);
}

/** Calls `onChange` with each committed write's changes to `dbName`; answers the unsubscribe. */
export function observeChanges(dbName: string, onChange: (changes: TableChanges) => void): () => void {
  const listener = (parts: Record<string, unknown>) => {
    const changes = changesOf(parts, dbName);
    if (changes.size > 0) onChange(changes);
  };
  Dexie.on('storagemutated', listener);
  return () => Dexie.on('storagemutated').unsubscribe(listener);
}
