/**
 * Changes kept aside (dead letters, docs/sync-protocol.md#status-contract): an entry the server
 * refused for good, the work that depended on it, work for a series the author can no longer reach,
 * and a create or edit the server saved onto a row deleted on another device. Each keeps the
 * author's words (to copy or export from the problems panel); all are built by `addDeadLetter`.
 */
import type { ApiErrorBody, EntityKind } from '@chronicler/schema';
import {
  type ChroniclerDb,
  type DeadLetter,
  type OutboxEntry,
  type RecoverableContent,
  SYNC_TABLES,
  entityTable,
  splitEntityKey as splitKey,
} from '../db.ts';
import type { Ack } from '../acks.ts';
import { WRITABLE, isWritableKind } from '../kinds.ts';
import { referencedIds } from '../mutators.ts';
import { recompute } from '../rebase.ts';
import type { EngineContext } from './context.ts';

const LABEL_FIELDS = ['title', 'name'] as const;

function labelOf(row: Record<string, unknown> | null | undefined, body: Record<string, unknown> | null | undefined): string {
  for (const source of [body, row]) {
    for (const f of LABEL_FIELDS) if (source && typeof source[f] === 'string' && source[f]) return source[f] as string;
  }
  return '';
}

/** The author's words of an entry: its body, plus the full chapter text for chapter work. */
export async function recoverableContent(db: ChroniclerDb, entry: OutboxEntry): Promise<RecoverableContent> {
  const body = (entry.body && typeof entry.body === 'object' ? entry.body : {}) as Record<string, unknown>;
  const local = ((await entityTable(db, entry.entity).get(entry.entityId)) ?? null) as Record<string, unknown> | null;
  const before = entry.before.find((b) => b.entity === entry.entity && b.id === entry.entityId)?.row as Record<string, unknown> | null | undefined;
  const content: RecoverableContent = {
    entity: entry.entity,
    entityId: entry.entityId,
    label: labelOf(local ?? before, body),
    fields: { ...body },
  };
  if (typeof body.content === 'string') content.text = body.content;
  else if (entry.entity === 'chapters' && local && typeof local.content === 'string' && entry.kind === 'update') content.text = local.content;
  return content;
}

export interface DeadLetterCause {
  /** The HTTP status; 0 when the client decided (a dependant, a series out of reach). */
  status: number;
  response: ApiErrorBody | null;
  /** The idemKey of the refused entry this one depended on. */
  causedBy?: string;
}

/** Records `entry` as a dead letter with its words (read now, while the optimistic rows hold them). */
export async function addDeadLetter(db: ChroniclerDb, entry: OutboxEntry, cause: DeadLetterCause, createdAt: number): Promise<DeadLetter> {
  const letter: DeadLetter = {
    entry: { ...entry, status: 'pending' },
    status: cause.status,
    response: cause.response,
    content: await recoverableContent(db, entry),
    createdAt,
  };
  if (cause.causedBy) letter.causedBy = cause.causedBy;
  letter.id = await db.deadLetters.add(letter);
  return letter;
}

/** Tells the status store and the listeners (the app toasts it). */
function announce(ctx: EngineContext, letters: readonly DeadLetter[]): void {
  for (const letter of letters) {
    const message = letter.response?.message ?? 'A change was refused by the server';
    ctx.status.getState().reportError({ kind: 'rejected', message, at: ctx.now() });
    ctx.emit({ type: 'problem', deadLetter: letter, message });
  }
}

/** The answer to a create or edit is the row deleted: a delete elsewhere came first. */
export function removedByDeleteElsewhere({ entry, body }: Ack): boolean {
  if (entry.kind !== 'create' && entry.kind !== 'update') return false;
  const row = body as { id?: unknown; deletedAt?: unknown } | null;
  return !!row && row.id === entry.entityId && typeof row.deletedAt === 'string' && row.deletedAt !== '';
}

/** Why the words of a change the server answered with a deleted row are in the problems panel. */
export function removedByDeleteMessage(entity: EntityKind, kind: 'create' | 'update'): string {
  const parent = isWritableKind(entity) ? WRITABLE[entity].parentInWords : undefined;
  const gone = kind === 'create' ? `${parent ?? 'its series'} had` : 'it had';
  return `Saved, but ${gone} been deleted on another device, so it is no longer in your lists. Copy the text to keep it.`;
}

/**
 * A create or an edit the server saved onto a row that a delete on another device had already
 * removed (a chapter written offline in a book deleted elsewhere; story/dangling.ts on the
 * server) comes back deleted, and leaves this device's lists with the row. Its words stay in the
 * problems panel, to copy or export, instead of vanishing without a word.
 */
export async function keepRemovedWords(ctx: EngineContext, { entry, status }: Ack): Promise<void> {
  const message = removedByDeleteMessage(entry.entity, entry.kind === 'create' ? 'create' : 'update');
  const letter = await addDeadLetter(ctx.db, entry, { status, response: { message, code: 'CONFLICT' } }, ctx.now());
  announce(ctx, [letter]);
}

/** Work queued for a series the author can no longer reach can never succeed: keep its words. */
export async function deadLetterSeriesWork(ctx: EngineContext, seriesId: string): Promise<void> {
  const entries = await ctx.db.outbox.where('seriesId').equals(seriesId).sortBy('seq');
  const response = { message: 'You no longer have access to this series', code: 'FORBIDDEN' as ApiErrorBody['code'] };
  for (const entry of entries) {
    await addDeadLetter(ctx.db, entry, { status: 0, response }, ctx.now());
    await ctx.db.outbox.delete(entry.seq!);
  }
}

/** The list a reorder's body carries its rows in (kinds.ts). */
function reorderList(entity: EntityKind): string {
  const list = isWritableKind(entity) ? WRITABLE[entity].reorder?.list : undefined;
  if (list === undefined) throw new Error(`No reorder for ${entity}`);
  return list;
}

/**
 * Dead-letters `entry` (and its dependants), reverting their optimistic changes. `causeStatus` 0
 * means the client decided (e.g. the series left the caller's scope).
 */
export async function rejectEntry(ctx: EngineContext, entry: OutboxEntry, causeStatus: number, response: ApiErrorBody | null): Promise<DeadLetter[]> {
  const { db } = ctx;
  const letters: DeadLetter[] = [];
  await db.transaction('rw', SYNC_TABLES as unknown as string[], async () => {
    const current = await db.outbox.get(entry.seq!);
    if (!current) return;
    const later = await db.outbox.where('seq').above(entry.seq!).sortBy('seq');
    const rejectedIds = new Set<string>(current.kind === 'create' ? [current.entityId.toLowerCase()] : []);
    const dead: { entry: OutboxEntry; causedBy?: string }[] = [{ entry: current }];
    const dropped: OutboxEntry[] = [];
    const rewritten: OutboxEntry[] = [];
    const touched = new Set<string>();
    for (const e of later) {
      if (rejectedIds.size === 0) break;
      const refs = referencedIds(e);
      const hits = [...refs].filter((id) => rejectedIds.has(id));
      if (hits.length === 0) continue;
      if (e.kind === 'delete') {
        dropped.push(e); // deleting what never came to be: nothing to tell the author
      } else if (e.kind === 'reorder' && e.attempts === 0) {
        const listKey = reorderList(e.entity);
        const items = ((e.body as Record<string, { id: string; position: number }[]>)[listKey] ?? []).filter(
          (item) => !rejectedIds.has(item.id.toLowerCase()),
        );
        if (items.length === 0) dropped.push(e);
        else {
          e.body = { [listKey]: items };
          e.effects = e.effects.filter((f) => !rejectedIds.has(f.id.toLowerCase()));
          for (const key of e.touches) touched.add(key);
          e.touches = e.touches.filter((key) => !rejectedIds.has(splitKey(key)[1].toLowerCase()));
          rewritten.push(e);
        }
      } else {
        dead.push({ entry: e, causedBy: current.idemKey });
        if (e.kind === 'create') rejectedIds.add(e.entityId.toLowerCase());
      }
    }
    // Words first, while the optimistic rows still hold them.
    for (const d of dead) {
      const cause: DeadLetterCause = d.causedBy
        ? {
            status: 0,
            response: { message: `Not saved because an earlier change it depends on was refused: ${response?.message ?? 'rejected'}`, code: response?.code ?? 'BAD_REQUEST' },
            causedBy: d.causedBy,
          }
        : { status: causeStatus, response };
      letters.push(await addDeadLetter(db, d.entry, cause, ctx.now()));
    }
    for (const e of [...dead.map((d) => d.entry), ...dropped]) {
      await db.outbox.delete(e.seq!);
      for (const key of e.touches) touched.add(key);
    }
    for (const e of rewritten) {
      await db.outbox.put(e);
      for (const key of e.touches) touched.add(key);
    }
    for (const key of touched) {
      const [entity, id] = splitKey(key);
      await recompute(db, entity, id);
      // A chained entry whose predecessor will never be answered builds on the server state.
      const next = (await db.outbox.where('touches').equals(key).sortBy('seq'))[0];
      if (next?.chained && next.entity === entity && next.entityId === id) {
        const shadow = await db.shadows.get([entity, id]);
        await db.outbox.update(next.seq!, { baseRev: shadow?.rev ?? null, chained: false });
      }
    }
  });
  announce(ctx, letters);
  return letters;
}
