/**
 * Restores a checked archive (archive.ts readArchive) into the caller's account, in the caller's
 * one write (sync/mutation.ts runMutation): all or nothing.
 *
 * Ids: a row keeps its id when it is free here. When taken, it gets an id derived from (author,
 * kind, original id) — the same on every restore — so restoring the same archive twice finds its
 * rows already present and writes nothing new. A row already present (live, in the same restored
 * series of this author) is left as it is. Plan limits and feature gates apply as to any create.
 * Chapter history is written as revisions older than the restored chapter.
 */
import crypto from 'node:crypto';
import { type EntityKind, type RestoreKindCount, type RestoreResult, newId } from '@chronicler/schema';
import { upsertRevision } from '../db/dialect.ts';
import { assertCanCreate, assertCreateLimit } from '../entities/gates.ts';
import { findRow } from '../entities/queries.ts';
import type { NewRow } from '../entities/wire.ts';
import { type MutationContext, insertRow } from '../entities/writes.ts';
import { nextSeq } from '../sync/mutation.ts';
import { BACKUP_KINDS, type BackupData, type ChapterHistoryEntry } from './kinds.ts';

/** A UUIDv7-shaped id from (author, kind, original): the original's time, the rest from a hash. */
export function derivedId(userId: string, kind: string, original: string): string {
  const hex = crypto.createHash('sha256').update(`${userId}:${kind}:${original}`).digest('hex');
  const time = original.replace(/-/g, '').slice(0, 12).padEnd(12, '0');
  const variant = ((parseInt(hex[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hex.slice(0, 3)}-${variant}${hex.slice(4, 7)}-${hex.slice(7, 19)}`;
}

type Decision = { id: string; present: boolean; remapped: boolean };

/** Where the row goes: its own id, its derived id, or a fresh one; and whether it is already there. */
async function place(ctx: MutationContext, kind: EntityKind, original: string, seriesId: string | null): Promise<Decision> {
  const candidates = [original, derivedId(ctx.userId, kind, original)];
  for (const [i, id] of candidates.entries()) {
    const found = await findRow(ctx.trx, kind, id);
    if (!found) return { id, present: false, remapped: i > 0 };
    const live = found.deletedAt === null;
    const ours =
      kind === 'series' ? (found as { ownerId: string }).ownerId === ctx.userId : (found as { seriesId: string }).seriesId === seriesId;
    if (live && ours) return { id, present: true, remapped: i > 0 };
  }
  return { id: newId(), present: false, remapped: true };
}

const STAMPS = ['rev', 'createdAt', 'updatedAt', 'deletedAt'];

export async function restoreBackup(ctx: MutationContext, data: BackupData): Promise<RestoreResult> {
  const ids = new Map<EntityKind, Map<string, string>>();
  const counts: Record<string, RestoreKindCount> = {};
  const historyOf = new Map<string, ChapterHistoryEntry[]>();
  for (const h of data.chapterHistory) historyOf.set(h.chapterId, [...(historyOf.get(h.chapterId) ?? []), h]);

  for (const { kind, refs, listRefs = {}, optionalRefs = [], userFields = [] } of BACKUP_KINDS) {
    const map = new Map<string, string>();
    ids.set(kind, map);
    const count: RestoreKindCount = { restored: 0, alreadyPresent: 0, remapped: 0 };
    counts[kind] = count;
    for (const row of data.rows[kind] ?? []) {
      const values: Record<string, unknown> = Object.fromEntries(Object.entries(row).filter(([k]) => !STAMPS.includes(k)));
      for (const [field, target] of Object.entries(refs)) {
        if (values[field] === null) continue;
        const mapped = ids.get(target)?.get(String(values[field]));
        if (mapped === undefined && optionalRefs.includes(field)) values[field] = null;
        else values[field] = mapped;
      }
      for (const [field, target] of Object.entries(listRefs)) {
        const list = (values[field] as string[]).flatMap((id) => ids.get(target)?.get(id) ?? []);
        values[field] = list;
      }
      for (const field of userFields) values[field] = ctx.userId;
      const seriesId = kind === 'series' ? null : String(values.seriesId);
      const decision = await place(ctx, kind, String(row.id), seriesId);
      map.set(String(row.id), decision.id);
      if (decision.present) {
        count.alreadyPresent += 1;
        continue;
      }
      if (kind === 'series') await assertCreateLimit(ctx.trx, 'series', { ownerId: ctx.userId });
      else await assertCanCreate(ctx.trx, kind, seriesId!);
      values.id = decision.id;
      const createdAt = String(row.createdAt);
      if (kind === 'chapters') {
        await writeHistory(ctx, decision.id, values, createdAt, historyOf.get(String(row.id)) ?? []);
        // The chapter's own rev comes after its history's, so the history reads as older.
        await insertRow({ ...ctx, seq: await nextSeq(ctx.trx) }, kind, values as unknown as NewRow<typeof kind>, createdAt);
      } else {
        await insertRow(ctx, kind, values as unknown as NewRow<typeof kind>, createdAt);
      }
      count.restored += 1;
      if (decision.remapped) count.remapped += 1;
    }
  }
  return { series: (data.rows.series ?? []).map((s) => String(s.title)), counts };
}

async function writeHistory(ctx: MutationContext, chapterId: string, chapter: Record<string, unknown>, createdAt: string, history: ChapterHistoryEntry[]): Promise<void> {
  for (const h of history) {
    const rev = await nextSeq(ctx.trx);
    const snapshot = {
      ...chapter,
      id: chapterId,
      title: h.title,
      content: h.content,
      position: h.position,
      wordCount: h.wordCount,
      status: h.status,
      rev,
      createdAt,
      updatedAt: h.createdAt,
      deletedAt: null,
    };
    await upsertRevision(ctx.trx, {
      entity: 'chapters',
      entityId: chapterId,
      rev,
      seriesId: String(chapter.seriesId),
      userId: ctx.userId,
      snapshot: JSON.stringify(snapshot),
      createdAt: h.createdAt,
    });
  }
}
