/**
 * Keeping local rows = server state + pending effects (the invariant in db.ts). Used by the
 * mutators (a new effect), the push (an answer replaces the server state, an entry leaves the
 * outbox) and the pull (a newer server state arrives). Every function here runs inside a caller's
 * Dexie transaction over SYNC_TABLES.
 */
import { countWordsEditor } from '@chronicler/schema';
import {
  type AnyRow,
  type ChroniclerDb,
  type Effect,
  type EntityKind,
  type OutboxEntry,
  type Shadow,
  entityKey,
  entityTable,
} from './db.ts';

/** The fields of a synced row (schema order); answers carry extras such as mergeStatus. */
const ROW_EXTRAS = ['mergeStatus', 'conflictId'] as const;

/** A server answer or feed row reduced to the stored row. */
export function cleanRow<T extends AnyRow>(row: T): T {
  if (!ROW_EXTRAS.some((k) => k in row)) return row;
  const copy = { ...row } as Record<string, unknown>;
  for (const k of ROW_EXTRAS) delete copy[k];
  return copy as T;
}

export function isLive(row: AnyRow | null | undefined): row is AnyRow {
  return !!row && !row.deletedAt;
}

/** Outbox entries that touch one row, in send order. */
export async function entriesTouching(db: ChroniclerDb, entity: EntityKind, id: string): Promise<OutboxEntry[]> {
  return db.outbox.where('touches').equals(entityKey(entity, id)).sortBy('seq');
}

function effectsFor(entries: readonly OutboxEntry[], entity: EntityKind, id: string): Effect[] {
  const out: Effect[] = [];
  for (const entry of entries) for (const e of entry.effects) if (e.entity === entity && e.id === id) out.push(e);
  return out;
}

/** Applies effects to a base row. `edited`: a patch landed (keeps a tombstoned row visible). */
export function replay(entity: EntityKind, base: AnyRow | null, effects: readonly Effect[]): { row: AnyRow | null; edited: boolean } {
  let row = base;
  let edited = false;
  let contentTouched = false;
  for (const effect of effects) {
    if (effect.op === 'put') {
      // A create whose answer is already known (e.g. pulled after a lost answer): the server row wins.
      row = row ?? effect.row;
    } else if (effect.op === 'patch') {
      if (!row) continue;
      row = { ...row, ...effect.fields } as AnyRow;
      edited = true;
      if ('content' in effect.fields) contentTouched = true;
    } else {
      row = null;
      edited = false;
    }
  }
  if (row && entity === 'chapters' && contentTouched) {
    const content = (row as { content: string }).content;
    row = { ...row, wordCount: countWordsEditor(content) } as AnyRow;
  }
  return { row, edited };
}

async function writeLocal(db: ChroniclerDb, entity: EntityKind, id: string, row: AnyRow | null): Promise<void> {
  const table = entityTable(db, entity);
  if (row) await table.put(row as never);
  else await table.delete(id);
}

/**
 * Recomputes the local row of (entity, id) from its shadow and the outbox. Without outbox work the
 * shadow becomes the local row and is dropped.
 */
export async function recompute(db: ChroniclerDb, entity: EntityKind, id: string): Promise<void> {
  const shadow = await db.shadows.get([entity, id]);
  const entries = await entriesTouching(db, entity, id);
  const effects = effectsFor(entries, entity, id);
  if (!shadow) {
    // Invariant: no shadow means no outbox work and the local row already is the server state.
    return;
  }
  if (effects.length === 0) {
    await writeLocal(db, entity, id, isLive(shadow.row) ? shadow.row : null);
    await db.shadows.delete([entity, id]);
    return;
  }
  const { row, edited } = replay(entity, shadow.row, effects);
  // A row deleted on the server stays visible while local edits to it are still to be sent:
  // their answer (and any conflict copy of its text) decides, not the tombstone.
  await writeLocal(db, entity, id, row && (!row.deletedAt || edited) ? row : null);
}

/** Makes sure (entity, id) has a shadow before an effect on it is queued; answers the local row. */
export async function ensureShadow(db: ChroniclerDb, entity: EntityKind, id: string): Promise<AnyRow | null> {
  const local = ((await entityTable(db, entity).get(id)) as AnyRow | undefined) ?? null;
  const existing = await db.shadows.get([entity, id]);
  if (!existing) {
    const shadow: Shadow = { entity, id, row: local, rev: local?.rev ?? 0 };
    await db.shadows.put(shadow);
  }
  return local;
}

/**
 * A server row (from the feed or an answer). Older than what is known: ignored (a replayed answer
 * can be older than a pull). Rows with outbox work update the shadow and are rebased; others are
 * written (or, as tombstones, deleted) directly. Answers whether the row was taken.
 */
export async function applyServerRow(db: ChroniclerDb, entity: EntityKind, incoming: AnyRow, checkLocalRev = true): Promise<boolean> {
  const row = cleanRow(incoming);
  const shadow = await db.shadows.get([entity, row.id]);
  if (shadow) {
    if (row.rev < shadow.rev) return false;
    await db.shadows.put({ entity, id: row.id, row, rev: row.rev });
    await recompute(db, entity, row.id);
    return true;
  }
  if (checkLocalRev) {
    const local = (await entityTable(db, entity).get(row.id)) as AnyRow | undefined;
    if (local && local.rev > row.rev) return false;
  }
  await writeLocal(db, entity, row.id, isLive(row) ? row : null);
  return true;
}

/**
 * An acknowledged delete whose answer did not carry the row (a cascaded child): the shadow becomes a
 * tombstone. Other unanswered effects are NOT folded: the feed brings their server state (their
 * seq is after the cursor, or a pull already brought it), and guessing it could diverge for good.
 */
export async function foldDeleteIntoShadow(db: ChroniclerDb, effect: Effect, nowIso: string): Promise<void> {
  if (effect.op !== 'delete') return;
  const shadow = await db.shadows.get([effect.entity, effect.id]);
  if (!shadow?.row) return;
  await db.shadows.put({ ...shadow, row: { ...shadow.row, deletedAt: shadow.row.deletedAt ?? nowIso } as AnyRow });
}
