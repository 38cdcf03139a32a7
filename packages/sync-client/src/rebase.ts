/**
 * Keeping local rows = server state + pending effects (the invariant in db.ts). Used by the
 * mutators (a new effect), the push (an answer replaces the server state, an entry leaves the
 * outbox) and the pull (a newer server state arrives). Every function here runs inside a caller's
 * Dexie transaction over SYNC_TABLES.
 *
 * They read and write through a `RebaseStore`: the Dexie tables themselves (pass the database), or
 * a transaction-scoped cache over them (acks.ts) that answers from rows read in bulk and writes back
 * in bulk once — the same rules either way.
 */
import { chapterWordCount } from '@chronicler/schema';
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

/** What the rebase rules read and write: shadows, local rows and the outbox entries touching a row. */
export interface RebaseStore {
  readonly isRebaseStore: true;
  shadow(entity: EntityKind, id: string): Promise<Shadow | undefined>;
  putShadow(shadow: Shadow): Promise<void>;
  deleteShadow(entity: EntityKind, id: string): Promise<void>;
  row(entity: EntityKind, id: string): Promise<AnyRow | undefined>;
  putRow(entity: EntityKind, row: AnyRow): Promise<void>;
  deleteRow(entity: EntityKind, id: string): Promise<void>;
  /** Outbox entries that touch one row, in send order. */
  entriesTouching(entity: EntityKind, id: string): Promise<OutboxEntry[]>;
}

/** A database or a store over it. */
export type RebaseTarget = ChroniclerDb | RebaseStore;

const direct = new WeakMap<ChroniclerDb, RebaseStore>();

/** The store that reads and writes the Dexie tables directly (in the caller's transaction). */
export function dexieStore(db: ChroniclerDb): RebaseStore {
  let store = direct.get(db);
  if (!store) {
    store = {
      isRebaseStore: true,
      shadow: (entity, id) => db.shadows.get([entity, id]),
      putShadow: async (shadow) => void (await db.shadows.put(shadow)),
      deleteShadow: (entity, id) => db.shadows.delete([entity, id]),
      row: async (entity, id) => (await entityTable(db, entity).get(id)) as AnyRow | undefined,
      putRow: async (entity, row) => void (await entityTable(db, entity).put(row as never)),
      deleteRow: (entity, id) => entityTable(db, entity).delete(id),
      entriesTouching: (entity, id) => db.outbox.where('touches').equals(entityKey(entity, id)).sortBy('seq'),
    };
    direct.set(db, store);
  }
  return store;
}

function storeOf(target: RebaseTarget): RebaseStore {
  return (target as Partial<RebaseStore>).isRebaseStore === true ? (target as RebaseStore) : dexieStore(target as ChroniclerDb);
}

/** Outbox entries that touch one row, in send order. */
export async function entriesTouching(target: RebaseTarget, entity: EntityKind, id: string): Promise<OutboxEntry[]> {
  return storeOf(target).entriesTouching(entity, id);
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
    row = { ...row, wordCount: chapterWordCount(content) } as AnyRow;
  }
  return { row, edited };
}

async function writeLocal(store: RebaseStore, entity: EntityKind, id: string, row: AnyRow | null): Promise<void> {
  if (row) await store.putRow(entity, row);
  else await store.deleteRow(entity, id);
}

/**
 * Recomputes the local row of (entity, id) from its shadow and the outbox. Without outbox work the
 * shadow becomes the local row and is dropped.
 */
export async function recompute(target: RebaseTarget, entity: EntityKind, id: string): Promise<void> {
  const store = storeOf(target);
  const shadow = await store.shadow(entity, id);
  if (!shadow) {
    // Invariant: no shadow means no outbox work and the local row already is the server state.
    return;
  }
  const effects = effectsFor(await store.entriesTouching(entity, id), entity, id);
  if (effects.length === 0) {
    await writeLocal(store, entity, id, isLive(shadow.row) ? shadow.row : null);
    await store.deleteShadow(entity, id);
    return;
  }
  const { row, edited } = replay(entity, shadow.row, effects);
  // A row deleted on the server stays visible while local edits to it are still to be sent:
  // their answer (and any conflict copy of its text) decides, not the tombstone.
  await writeLocal(store, entity, id, row && (!row.deletedAt || edited) ? row : null);
}

/** Makes sure (entity, id) has a shadow before an effect on it is queued; answers the local row. */
export async function ensureShadow(target: RebaseTarget, entity: EntityKind, id: string): Promise<AnyRow | null> {
  const store = storeOf(target);
  const local = (await store.row(entity, id)) ?? null;
  const existing = await store.shadow(entity, id);
  if (!existing) {
    const shadow: Shadow = { entity, id, row: local, rev: local?.rev ?? 0 };
    await store.putShadow(shadow);
  }
  return local;
}

/**
 * A server row (from the feed or an answer). Older than what is known: ignored (a replayed answer
 * can be older than a pull). Rows with outbox work update the shadow and are rebased; others are
 * written (or, as tombstones, deleted) directly. Answers whether the row was taken.
 */
export async function applyServerRow(target: RebaseTarget, entity: EntityKind, incoming: AnyRow, checkLocalRev = true): Promise<boolean> {
  const store = storeOf(target);
  const row = cleanRow(incoming);
  const shadow = await store.shadow(entity, row.id);
  if (shadow) {
    if (row.rev < shadow.rev) return false;
    await store.putShadow({ entity, id: row.id, row, rev: row.rev });
    await recompute(store, entity, row.id);
    return true;
  }
  if (checkLocalRev) {
    const local = await store.row(entity, row.id);
    if (local && local.rev > row.rev) return false;
  }
  await writeLocal(store, entity, row.id, isLive(row) ? row : null);
  return true;
}

/**
 * An acknowledged delete whose answer did not carry the row (a cascaded child): the shadow becomes a
 * tombstone. Other unanswered effects are NOT folded: the feed brings their server state (their
 * seq is after the cursor, or a pull already brought it), and guessing it could diverge for good.
 */
export async function foldDeleteIntoShadow(target: RebaseTarget, effect: Effect, nowIso: string): Promise<void> {
  if (effect.op !== 'delete') return;
  const store = storeOf(target);
  const shadow = await store.shadow(effect.entity, effect.id);
  if (!shadow?.row) return;
  await store.putShadow({ ...shadow, row: { ...shadow.row, deletedAt: shadow.row.deletedAt ?? nowIso } as AnyRow });
}
