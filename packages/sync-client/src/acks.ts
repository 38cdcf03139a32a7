/**
 * Acknowledging answered outbox entries: a group of consecutive 2xx answers (a batch's answers, or
 * one single request's) is applied in ONE Dexie transaction over SYNC_TABLES.
 *
 * For each entry, in send order, exactly what one acknowledgement always did: the entry leaves the
 * outbox, the answer's rows become the server state (rebase of the work still queued on them), an
 * unanswered cascade delete is folded into its shadow, the rows the entry touched are recomputed,
 * and the next chained entry of each row gets its base revision. Only the storage access differs:
 * the rows, shadows and outbox entries the group needs are read in bulk up front into a
 * transaction-scoped cache (rebase.ts `RebaseCache`), the rules run against it, and every change is
 * written back in bulk at the end — a few IndexedDB requests and one commit per group instead of a
 * dozen requests and a commit per entry (docs/decisions/0008-outbox-in-the-same-transaction.md).
 *
 * Guarantees, unchanged: an entry leaves the outbox only once the server has acknowledged it, and
 * the group commits all or nothing. A crash after the server's answer and before this commit
 * leaves the entries in the outbox (status `inflight`); the next leader sends them again with the
 * same Idempotency-Key and the server answers its stored result, which is then acknowledged here.
 */
import {
  type AnyRow,
  type ChroniclerDb,
  type EntityKind,
  type OutboxEntry,
  SYNC_TABLES,
  entityKey,
  splitEntityKey,
} from './db.ts';
import { RebaseCache, applyServerRow, cleanRow, foldDeleteIntoShadow, recompute } from './rebase.ts';

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

/** The next entry touching each row gets its base revision once the one before it is answered. */
async function resolveChains(cache: RebaseCache, entry: OutboxEntry, answered: Map<string, AnyRow>): Promise<void> {
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
async function acknowledgeIn(cache: RebaseCache, ack: Ack, nowIso: string): Promise<boolean> {
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
    const cache = new RebaseCache(tx);
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
