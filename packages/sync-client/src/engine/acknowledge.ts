/**
 * Success answers: applied to the database in groups (acks.ts: one Dexie transaction per group),
 * then told to the listeners (`acked`, and `conflict` when the server kept a conflict copy).
 */
import { type Ack, applyAcks } from '../acks.ts';
import type { EngineContext } from './context.ts';
import { keepRemovedWords, removedByDeleteElsewhere } from './dead-letters.ts';

/** The most acknowledgements applied in one Dexie transaction. */
export const ACK_GROUP_MAX = 200;

/**
 * Applies consecutive success answers, ACK_GROUP_MAX per transaction. Answers how many were
 * applied (an entry may have left the outbox meanwhile: dead-lettered as a dependant, purged with
 * its series).
 */
export async function acknowledgeAll(ctx: EngineContext, acks: readonly Ack[]): Promise<number> {
  let count = 0;
  for (let from = 0; from < acks.length; from += ACK_GROUP_MAX) {
    const group = acks.slice(from, from + ACK_GROUP_MAX);
    const applied = await applyAcks(ctx.db, group, new Date(ctx.now()).toISOString());
    for (const [i, ack] of group.entries()) if (applied[i] && removedByDeleteElsewhere(ack)) await keepRemovedWords(ctx, ack);
    group.forEach(({ entry, body, status }, i) => {
      if (!applied[i]) return;
      count += 1;
      const answer = body as { conflictId?: unknown; id?: unknown; mergeStatus?: unknown } | null;
      ctx.emit({
        type: 'acked',
        idemKey: entry.idemKey,
        status,
        kind: entry.kind,
        entity: entry.entity,
        entityId: entry.entityId,
        ...(typeof answer?.mergeStatus === 'string' ? { mergeStatus: answer.mergeStatus } : {}),
      });
      if (answer && typeof answer.conflictId === 'string' && typeof answer.id === 'string') {
        ctx.emit({ type: 'conflict', chapterId: answer.id, conflictId: answer.conflictId });
      }
    });
  }
  return count;
}
