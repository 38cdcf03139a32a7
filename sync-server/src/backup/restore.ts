/**
 * Restores a checked archive (archive.ts readArchive) into the caller's account, in the caller's
 * one write (sync/mutation.ts runMutation): all or nothing.
 *
 * Ids: a row keeps its id when it is free here. When taken, it gets an id derived from (author,
 * kind, original id) — the same on every restore — so restoring the same archive twice finds its
 * rows already present and writes nothing new. A row already present (live, in the same restored
 * series of this author) is left as it is. Plan limits and feature gates apply as to any create.
 * Chapter history is written as revisions older than the restored chapter. The author's own rows
 * (statistics, achievements, settings) are merged last (restore-author.ts).
 */
import { ERROR_CODES, type EntityKind, type RestoreKindCount, type RestoreResult, gateState, newId } from '@chronicler/schema';
import { upsertRevision } from '../db/dialect.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { countLive, ownerPlan, userPlan } from '../entities/queries.ts';
import { ENTITIES } from '../entities/registry.ts';
import { HttpError } from '../http/errors.ts';
import type { NewRow } from '../entities/wire.ts';
import { type MutationContext, insertRow } from '../entities/writes.ts';
import { nextSeq } from '../sync/mutation.ts';
import { BACKUP_KINDS, type BackupData, type ChapterHistoryEntry } from './kinds.ts';
import { derivedId } from './derived-id.ts';
import { restoreAuthorRows } from './restore-author.ts';

type Decision = { id: string; present: boolean; remapped: boolean };

/** What is stored under an id: whether it is live, and its series (its owner, for a series). */
type Stored = { live: boolean; scope: string };

/** Ids per query: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/** The stored rows among `ids`, in a few queries (a restore places thousands of rows). */
async function storedRows(ctx: MutationContext, kind: EntityKind, ids: readonly string[]): Promise<Map<string, Stored>> {
  const out = new Map<string, Stored>();
  const table = ENTITIES[kind].table as 'books';
  const scope = kind === 'series' ? 'ownerId' : 'seriesId';
  for (let i = 0; i < ids.length; i += CHUNK) {
    const found = await ctx.trx
      .selectFrom(table)
      .select(['id', 'deletedAt', `${scope} as scope` as 'seriesId'])
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of found) out.set(r.id, { live: r.deletedAt === null, scope: String((r as unknown as { scope: string }).scope) });
  }
  return out;
}

/**
 * Where a row goes: its own id, else its derived id, else a fresh one; present when one of them
 * already holds it (live, in the same series of this author — for a series: owned by the author).
 */
function place(ctx: MutationContext, stored: Map<string, Stored>, kind: EntityKind, original: string, seriesId: string | null): Decision {
  const candidates = [original, derivedId(ctx.userId, kind, original)];
  for (const [i, id] of candidates.entries()) {
    const found = stored.get(id);
    if (!found) return { id, present: false, remapped: i > 0 };
    if (found.live && found.scope === (kind === 'series' ? ctx.userId : seriesId)) return { id, present: true, remapped: i > 0 };
  }
  return { id: newId(), present: false, remapped: true };
}

/** The plan's gates for `count` new rows of `kind` in a series, checked once (as `count` creates would be). */
async function assertCanCreateMany(ctx: MutationContext, kind: EntityKind, seriesId: string, count: number): Promise<void> {
  await assertWriteFeature(ctx.trx, kind, seriesId);
  const limit = ENTITIES[kind].createLimit;
  if (limit === null) return;
  const existing = await countLive(ctx.trx, kind, 'seriesId', seriesId);
  // The last of the new rows is the one that must still fit.
  const gate = gateState({ plan: await ownerPlan(ctx.trx, seriesId), limit, count: existing + count - 1 });
  if (gate.locked) throw new HttpError(403, ERROR_CODES.planLimit, gate.message);
}

const STAMPS = ['rev', 'createdAt', 'updatedAt', 'deletedAt'];

export async function restoreBackup(ctx: MutationContext, data: BackupData): Promise<RestoreResult> {
  const ids = new Map<EntityKind, Map<string, string>>();
  const counts: Record<string, RestoreKindCount> = {};
  const historyOf = new Map<string, ChapterHistoryEntry[]>();
  for (const h of data.chapterHistory) {
    const list = historyOf.get(h.chapterId);
    if (list) list.push(h);
    else historyOf.set(h.chapterId, [h]);
  }

  for (const { kind, refs, listRefs = {}, optionalRefs = [], userFields = [] } of BACKUP_KINDS) {
    const map = new Map<string, string>();
    ids.set(kind, map);
    const count: RestoreKindCount = { restored: 0, alreadyPresent: 0, remapped: 0 };
    counts[kind] = count;
    const list = data.rows[kind] ?? [];
    const stored = await storedRows(ctx, kind, list.flatMap((r) => [String(r.id), derivedId(ctx.userId, kind, String(r.id))]));
    const inserts: { values: Record<string, unknown>; createdAt: string; original: string; remapped: boolean }[] = [];
    for (const row of list) {
      const values: Record<string, unknown> = Object.fromEntries(Object.entries(row).filter(([k]) => !STAMPS.includes(k)));
      for (const [field, target] of Object.entries(refs)) {
        if (values[field] === null) continue;
        const mapped = ids.get(target)?.get(String(values[field]));
        if (mapped === undefined && optionalRefs.includes(field)) values[field] = null;
        else values[field] = mapped;
      }
      for (const [field, target] of Object.entries(listRefs)) {
        values[field] = (values[field] as string[]).flatMap((id) => ids.get(target)?.get(id) ?? []);
      }
      for (const field of userFields) values[field] = ctx.userId;
      const decision = place(ctx, stored, kind, String(row.id), kind === 'series' ? null : String(values.seriesId));
      map.set(String(row.id), decision.id);
      if (decision.present) {
        count.alreadyPresent += 1;
        continue;
      }
      values.id = decision.id;
      inserts.push({ values, createdAt: String(row.createdAt), original: String(row.id), remapped: decision.remapped });
    }
    // Plan limits and gates, as for the same creates one by one: all or nothing.
    if (kind === 'series') {
      if (inserts.length > 0) {
        const existing = await countLive(ctx.trx, 'series', 'ownerId', ctx.userId);
        const gate = gateState({ plan: await userPlan(ctx.trx, ctx.userId), limit: 'series', count: existing + inserts.length - 1 });
        if (gate.locked) throw new HttpError(403, ERROR_CODES.planLimit, gate.message);
      }
    } else {
      const perSeries = new Map<string, number>();
      for (const { values } of inserts) perSeries.set(String(values.seriesId), (perSeries.get(String(values.seriesId)) ?? 0) + 1);
      for (const [seriesId, n] of perSeries) await assertCanCreateMany(ctx, kind, seriesId, n);
    }
    for (const { values, createdAt, original, remapped } of inserts) {
      const history = kind === 'chapters' ? (historyOf.get(original) ?? []) : [];
      if (history.length > 0) {
        await writeHistory(ctx, String(values.id), values, createdAt, history);
        // The chapter's own rev comes after its history's, so the history reads as older.
        await insertRow({ ...ctx, seq: await nextSeq(ctx.trx) }, kind, values as unknown as NewRow<typeof kind>, createdAt);
      } else {
        await insertRow(ctx, kind, values as unknown as NewRow<typeof kind>, createdAt);
      }
      count.restored += 1;
      if (remapped) count.remapped += 1;
    }
  }
  if (data.author) Object.assign(counts, await restoreAuthorRows(ctx, data.author, ids));
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
      // A restored history entry is one the author had in History.
      inHistory: 1,
    });
  }
}
