/**
 * Acknowledging answered outbox entries: a group of consecutive 2xx answers (a batch's answers, or
 * one single request's) is applied in ONE Dexie transaction over SYNC_TABLES.
 *
 * For each entry, in send order, exactly what one acknowledgement always did: the entry leaves the
 * outbox, the answer's rows become the server state (rebase of the work still queued on them), an
 * unanswered cascade delete is folded into its shadow, the rows the entry touched are recomputed,
 * and the next chained entry of each row gets its base revision. Only the storage access differs:
 * the rows, shadows and outbox entries the group needs are read in bulk up front into a
 * transaction-scoped cache, the rules run against it (rebase.ts, through `RebaseStore`), and every
 * change is written back in bulk at the end — a few IndexedDB requests and one commit per group
 * instead of a dozen requests and a commit per entry (DESIGN.md §6).
 *
 * Guarantees, unchanged: an entry leaves the outbox only once the server has acknowledged it, and
 * the group commits all or nothing. A crash after the server's answer and before this commit
 * leaves the entries in the outbox (status `inflight`); the next leader sends them again with the
 * same Idempotency-Key and the server answers its stored result, which is then acknowledged here.
 */
import type { Table, Transaction } from 'dexie';
import {
  type AnyRow,
  type ChroniclerDb,
  type EntityKind,
  type OutboxEntry,
  type Shadow,
  SYNC_TABLES,
  entityKey,
  splitEntityKey,
} from './db.ts';
import { type RebaseStore, applyServerRow, cleanRow, foldDeleteIntoShadow, recompute } from './rebase.ts';

/** One 2xx answer (or a DELETE answered 404, with a null body) to acknowledge. */
export interface Ack {
  entry: OutboxEntry;
  body: unknown;
  status: number;
}

function looksLikeRow(value: unknown): value is AnyRow {
  const v = value as { id?: unknown; rev?: unknown } | null;
  return !!v && typeof v === 'object' && typeof v.id === 'string' && typeof v.rev === 'number';
}

/** The rows an answer carries: the row itself, or the listed rows of a reorder. */
export function rowsOfAnswer(entry: Pick<OutboxEntry, 'entity'>, body: unknown): { entity: EntityKind; row: AnyRow }[] {
  if (looksLikeRow(body)) return [{ entity: entry.entity, row: cleanRow(body) }];
  const lists: unknown[] = [];
  if (Array.isArray(body)) lists.push(...body);
  else if (body && typeof body === 'object') {
    for (const value of Object.values(body)) if (Array.isArray(value)) lists.push(...value);
  }
  return lists.filter(looksLikeRow).map((row) => ({ entity: entry.entity, row: cleanRow(row) }));
}

/** Stand-in seqs of entries added in a cache start here, above any the outbox gives. */
const FIRST_STAND_IN = 2 ** 52;

/**
 * A transaction-scoped cache over the shadows, entity tables and outbox. Reads not loaded up front
 * fall through to Dexie (still inside the caller's transaction, so nothing else can change them
 * meanwhile); writes stay in memory until `save()`.
 *
 * Every Dexie call goes through the transaction's own tables (`tx.table`), not the database's:
 * the in-memory work between them is hundreds of awaits with no IndexedDB request, after which
 * Dexie no longer follows the transaction zone through native promises (it echoes a zone for 100
 * microtasks per await) and `db.table` calls would start transactions of their own.
 */
export class AckCache implements RebaseStore {
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

/** The next entry touching each row gets its base revision once the one before it is answered. */
async function resolveChains(cache: AckCache, entry: OutboxEntry, answered: Map<string, AnyRow>): Promise<void> {
  for (const key of entry.touches) {
    const [entity, id] = splitEntityKey(key);
    const next = (await cache.entriesTouching(entity, id))[0];
    if (!next || !next.chained || next.entity !== entity || next.entityId !== id) continue;
    const row = answered.get(key);
    const shadow = await cache.shadow(entity, id);
    let base: number | null;
    const sentContent = (entry.body as { content?: unknown } | undefined)?.content;
    if (row) {
      // When the server did not store our text as sent (merged with, or kept apart from, someone
      // else's), the next edit still builds on OUR text: keep our earlier base so the server
      // merges against what we started from, never overwriting their words with ours.
      const diverged = typeof sentContent === 'string' && (row as { content?: unknown }).content !== sentContent;
      base = diverged ? (entry.baseRev ?? row.rev) : row.rev;
    } else {
      base = entry.baseRev ?? shadow?.rev ?? null;
    }
    cache.updateEntry(next.seq!, { baseRev: base, chained: false });
  }
}

/** One acknowledgement against the cache; false when the entry is gone meanwhile (dead-lettered as a dependant, purged). */
async function acknowledgeIn(cache: AckCache, ack: Ack, nowIso: string): Promise<boolean> {
  const current = await cache.entry(ack.entry.seq!);
  if (!current) return false;
  cache.deleteEntry(current.seq!);
  const answered = new Map<string, AnyRow>();
  for (const { entity, row } of rowsOfAnswer(current, ack.body)) {
    answered.set(entityKey(entity, row.id), row);
    await applyServerRow(cache, entity, row);
  }
  for (const effect of current.effects) {
    if (!answered.has(entityKey(effect.entity, effect.id))) await foldDeleteIntoShadow(cache, effect, nowIso);
  }
  for (const key of current.touches) {
    const [entity, id] = splitEntityKey(key);
    await recompute(cache, entity, id);
  }
  await resolveChains(cache, current, answered);
  return true;
}

/**
 * Applies `acks` (consecutive answers, in send order) in ONE transaction. Answers, per ack, whether
 * it was applied (false: its entry had already left the outbox).
 */
export async function applyAcks(db: ChroniclerDb, acks: readonly Ack[], nowIso: string): Promise<boolean[]> {
  if (acks.length === 0) return [];
  return db.transaction('rw', SYNC_TABLES as unknown as string[], async (tx) => {
    const cache = new AckCache(tx);
    const keys = new Set<string>();
    const rowKeys = new Set<string>();
    for (const { entry, body } of acks) {
      for (const key of entry.touches) keys.add(key);
      for (const { entity, row } of rowsOfAnswer(entry, body)) {
        keys.add(entityKey(entity, row.id));
        rowKeys.add(entityKey(entity, row.id));
      }
    }
    await cache.load(
      acks.map((a) => a.entry.seq!),
      [...keys],
      [...rowKeys],
    );
    const applied: boolean[] = [];
    for (const ack of acks) applied.push(await acknowledgeIn(cache, ack, nowIso));
    await cache.save();
    return applied;
  });
}
