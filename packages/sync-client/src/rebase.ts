/**
 * Keeping local rows = server state + pending effects (the invariant in db.ts): the replay rules
 * and the stores they run against. Used by the mutators (a new effect), the push (an answer
 * replaces the server state, an entry leaves the outbox) and the pull (a newer server state
 * arrives). Every function here runs inside a caller's Dexie transaction over SYNC_TABLES.
 *
 * The rules read and write through a `RebaseStore`: the Dexie tables themselves (pass the
 * database), or `RebaseCache`, a transaction-scoped cache over them that answers from rows read in
 * bulk and writes back in bulk once (an acknowledgement group in acks.ts, a mutation's write in
 * outbox-write.ts; docs/decisions/0008-outbox-in-the-same-transaction.md) — the same rules either
 * way.
 */
import type { Table, Transaction } from 'dexie';
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
  splitEntityKey,
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

/** Stand-in seqs of entries added in a cache start here, above any the outbox gives. */
const FIRST_STAND_IN = 2 ** 52;

/**
 * A transaction-scoped cache over the shadows, entity tables and outbox: the store an
 * acknowledgement group (acks.ts) and a mutation's write (outbox-write.ts) run the rules against.
 * Reads not loaded up front fall through to Dexie (still inside the caller's transaction, so nothing else can change them
 * meanwhile); writes stay in memory until `save()`.
 *
 * Every Dexie call goes through the transaction's own tables (`tx.table`), not the database's:
 * the in-memory work between them is hundreds of awaits with no IndexedDB request, after which
 * Dexie no longer follows the transaction zone through native promises (it echoes a zone for 100
 * microtasks per await) and `db.table` calls would start transactions of their own.
 */
export class RebaseCache implements RebaseStore {
  readonly isRebaseStore = true as const;
  private readonly shadows = new Map<string, Shadow | null>();
  private readonly rows = new Map<string, AnyRow | null>();
  private readonly dirtyShadows = new Set<string>();
  private readonly dirtyRows = new Set<string>();
  /** Outbox entries read so far, by seq, as they are now; null: not in the outbox (or deleted here). */
  private readonly entries = new Map<number, OutboxEntry | null>();
  private readonly deletedEntries = new Set<number>();
  private readonly dirtyEntries = new Set<number>();
  /** Seqs of the known entries touching each row key. */
  private readonly byKey = new Map<string, Set<number>>();
  /** Row keys whose touching entries are all known. */
  private readonly indexedKeys = new Set<string>();
  /** Stand-in seqs of the entries added here (addEntry), above any real one: the outbox numbers them when saved. */
  private readonly addedEntries: number[] = [];

  private readonly outbox: Table<OutboxEntry, number>;
  private readonly shadowTable: Table<Shadow, [EntityKind, string]>;

  constructor(private readonly tx: Transaction) {
    this.outbox = tx.table('outbox');
    this.shadowTable = tx.table('shadows');
  }

  private rowTable(entity: EntityKind): Table<AnyRow, string> {
    return this.tx.table(entity);
  }

  private index(entry: OutboxEntry): void {
    for (const key of entry.touches) {
      let seqs = this.byKey.get(key);
      if (!seqs) this.byKey.set(key, (seqs = new Set()));
      seqs.add(entry.seq!);
    }
  }

  /** Keeps what is already known (it may have changed here); adds what is not. */
  private remember(entry: OutboxEntry): void {
    if (this.entries.has(entry.seq!)) return;
    this.entries.set(entry.seq!, entry);
    this.index(entry);
  }

  /**
   * Reads in bulk: the outbox entries `seqs`, the shadows and queued work of `keys`, and the local
   * rows of those `rowKeys` that have no shadow (the only local rows the rules read).
   */
  async load(seqs: readonly number[], keys: readonly string[], rowKeys: readonly string[]): Promise<void> {
    // The group's own entries touch the group's keys: the index query brings them too (each
    // entry read once — chapter saves carry the text three times); only those that touch nothing
    // (a reorder that moved nothing) or left the outbox are asked for by key.
    await Promise.all([this.loadTouching(keys), this.loadShadows(keys)]);
    const unseen = seqs.filter((seq) => !this.entries.has(seq));
    if (unseen.length > 0) {
      const found = await this.outbox.bulkGet(unseen);
      unseen.forEach((seq, i) => {
        const entry = found[i];
        if (entry) this.remember(entry);
        else this.entries.set(seq, null);
      });
    }

    await this.loadRows(rowKeys.filter((key) => !this.shadows.get(key)));
  }

  /**
   * Reads in ONE wave of requests (a mutation's): the queued work touching `touchKeys`, the
   * shadows of `shadowKeys` and the local rows of `rowKeys`.
   */
  async loadAtOnce(touchKeys: readonly string[], shadowKeys: readonly string[], rowKeys: readonly string[]): Promise<void> {
    await Promise.all([this.loadTouching(touchKeys), this.loadShadows(shadowKeys), this.loadRows(rowKeys)]);
  }

  private async loadTouching(keys: readonly string[]): Promise<void> {
    const wanted = keys.filter((key) => !this.indexedKeys.has(key));
    if (wanted.length === 0) return;
    // One key (a mutation's row) is one index read; `anyOf` walks a cursor, a round trip per step.
    const query = wanted.length === 1 ? this.outbox.where('touches').equals(wanted[0]!) : this.outbox.where('touches').anyOf(wanted);
    for (const entry of await query.toArray()) this.remember(entry);
    for (const key of wanted) this.indexedKeys.add(key);
  }

  private async loadShadows(keys: readonly string[]): Promise<void> {
    const wanted = keys.filter((key) => !this.shadows.has(key));
    if (wanted.length === 0) return;
    const shadows = await this.shadowTable.bulkGet(wanted.map(splitEntityKey));
    wanted.forEach((key, i) => this.shadows.set(key, shadows[i] ?? null));
  }

  private async loadRows(rowKeys: readonly string[]): Promise<void> {
    const byKind = new Map<EntityKind, string[]>();
    for (const key of rowKeys) {
      if (this.rows.has(key)) continue;
      const [entity, id] = splitEntityKey(key);
      let ids = byKind.get(entity);
      if (!ids) byKind.set(entity, (ids = []));
      ids.push(id);
    }
    const kinds = [...byKind.keys()];
    const rows = await Promise.all(kinds.map((kind) => this.rowTable(kind).bulkGet(byKind.get(kind)!)));
    kinds.forEach((kind, k) => {
      byKind.get(kind)!.forEach((id, i) => this.rows.set(entityKey(kind, id), rows[k]![i] ?? null));
    });
  }

  /** A local row read in this transaction by other means: the cache answers it instead of reading it again. */
  knowRow(entity: EntityKind, id: string, row: AnyRow | null): void {
    const key = entityKey(entity, id);
    if (!this.rows.has(key)) this.rows.set(key, row);
  }

  async shadow(entity: EntityKind, id: string): Promise<Shadow | undefined> {
    const key = entityKey(entity, id);
    if (!this.shadows.has(key)) this.shadows.set(key, (await this.shadowTable.get([entity, id])) ?? null);
    return this.shadows.get(key) ?? undefined;
  }

  async putShadow(shadow: Shadow): Promise<void> {
    const key = entityKey(shadow.entity, shadow.id);
    this.shadows.set(key, shadow);
    this.dirtyShadows.add(key);
  }

  async deleteShadow(entity: EntityKind, id: string): Promise<void> {
    const key = entityKey(entity, id);
    this.shadows.set(key, null);
    this.dirtyShadows.add(key);
  }

  async row(entity: EntityKind, id: string): Promise<AnyRow | undefined> {
    const key = entityKey(entity, id);
    if (!this.rows.has(key)) this.rows.set(key, (await this.rowTable(entity).get(id)) ?? null);
    return this.rows.get(key) ?? undefined;
  }

  async putRow(entity: EntityKind, row: AnyRow): Promise<void> {
    const key = entityKey(entity, row.id);
    this.rows.set(key, row);
    this.dirtyRows.add(key);
  }

  async deleteRow(entity: EntityKind, id: string): Promise<void> {
    const key = entityKey(entity, id);
    this.rows.set(key, null);
    this.dirtyRows.add(key);
  }

  async entriesTouching(entity: EntityKind, id: string): Promise<OutboxEntry[]> {
    const key = entityKey(entity, id);
    if (!this.indexedKeys.has(key)) {
      for (const entry of await this.outbox.where('touches').equals(key).toArray()) this.remember(entry);
      this.indexedKeys.add(key);
    }
    const out: OutboxEntry[] = [];
    for (const seq of this.byKey.get(key) ?? []) {
      const entry = this.entries.get(seq);
      if (entry && entry.touches.includes(key)) out.push(entry);
    }
    return out.sort((a, b) => a.seq! - b.seq!);
  }

  async entry(seq: number): Promise<OutboxEntry | undefined> {
    if (!this.entries.has(seq)) {
      const entry = await this.outbox.get(seq);
      if (entry) this.remember(entry);
      else this.entries.set(seq, null);
    }
    return this.entries.get(seq) ?? undefined;
  }

  deleteEntry(seq: number): void {
    this.entries.set(seq, null);
    if (seq < FIRST_STAND_IN) this.deletedEntries.add(seq);
    this.dirtyEntries.delete(seq);
  }

  /**
   * Queues a new outbox entry (added to the outbox by `save()`, which numbers it): from now on it is
   * the last entry touching each of its rows, as it will be once added.
   */
  addEntry(entry: OutboxEntry): void {
    const standIn = FIRST_STAND_IN + this.addedEntries.length;
    this.addedEntries.push(standIn);
    this.entries.set(standIn, { ...entry, seq: standIn });
    this.index({ ...entry, seq: standIn });
  }

  /** Changes fields of a known entry (not its `touches`). */
  updateEntry(seq: number, changes: Partial<Omit<OutboxEntry, 'seq' | 'touches'>>): void {
    const entry = this.entries.get(seq);
    if (!entry) return;
    this.entries.set(seq, { ...entry, ...changes });
    // An added entry is written as it is when saved.
    if (seq < FIRST_STAND_IN) this.dirtyEntries.add(seq);
  }

  /** Writes every change back, in bulk. */
  async save(): Promise<void> {
    const ops: Promise<unknown>[] = [];
    if (this.deletedEntries.size > 0) ops.push(this.outbox.bulkDelete([...this.deletedEntries]));
    const changed = [...this.dirtyEntries].map((seq) => this.entries.get(seq)).filter((e): e is OutboxEntry => !!e);
    if (changed.length > 0) ops.push(this.outbox.bulkPut(changed));
    // In the order they were queued: the outbox's auto-increment gives them their send order.
    for (const standIn of this.addedEntries) {
      const added = this.entries.get(standIn);
      if (!added) continue;
      const { seq: _standIn, ...entry } = added;
      ops.push(this.outbox.add(entry));
    }
    this.addedEntries.length = 0;

    const shadowPuts: Shadow[] = [];
    const shadowDeletes: [EntityKind, string][] = [];
    for (const key of this.dirtyShadows) {
      const shadow = this.shadows.get(key);
      if (shadow) shadowPuts.push(shadow);
      else shadowDeletes.push(splitEntityKey(key));
    }
    if (shadowPuts.length > 0) ops.push(this.shadowTable.bulkPut(shadowPuts));
    if (shadowDeletes.length > 0) ops.push(this.shadowTable.bulkDelete(shadowDeletes));

    const rowPuts = new Map<EntityKind, AnyRow[]>();
    const rowDeletes = new Map<EntityKind, string[]>();
    for (const key of this.dirtyRows) {
      const [entity, id] = splitEntityKey(key);
      const row = this.rows.get(key);
      const target = row ? rowPuts : rowDeletes;
      let list = target.get(entity) as unknown[] | undefined;
      if (!list) target.set(entity, (list = []) as never);
      list.push(row ?? id);
    }
    for (const [entity, rows] of rowPuts) ops.push(this.rowTable(entity).bulkPut(rows));
    for (const [entity, ids] of rowDeletes) ops.push(this.rowTable(entity).bulkDelete(ids));
    await Promise.all(ops);

    this.deletedEntries.clear();
    this.dirtyEntries.clear();
    this.dirtyShadows.clear();
    this.dirtyRows.clear();
  }
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

export interface ApplyServerRowOptions {
  /**
   * Without outbox work on the row, skip it when the local row is newer (default true): a
   * replayed answer or a carried row can be older than a pull. The changes feed sends each row as
   * it is now, never older than the copy here.
   */
  checkLocalRev?: boolean;
}

/**
 * A server row (from the feed or an answer). Older than what is known: ignored (a replayed answer
 * can be older than a pull). Rows with outbox work update the shadow and are rebased; others are
 * written (or, as tombstones, deleted) directly. Answers whether the row was taken.
 */
export async function applyServerRow(
  target: RebaseTarget,
  entity: EntityKind,
  incoming: AnyRow,
  { checkLocalRev = true }: ApplyServerRowOptions = {},
): Promise<boolean> {
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
