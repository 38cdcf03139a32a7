/**
 * The outbox write of one mutation (docs/sync-protocol.md#outbox): its optimistic effects and its
 * outbox entry in ONE Dexie transaction over every sync table, so a crash never leaves one without
 * the other. A not-yet-sent update of a row is coalesced into its pending entry (an update: bodies
 * merged, the earliest base kept; the row's unsent create: one POST carrying the fields), and an
 * entry names the local-only creates it depends on. The mutators (mutators.ts) build what to write.
 */
import { newId } from '@chronicler/schema';
import {
  type AnyRow,
  type ChroniclerDb,
  type Effect,
  type EntityKind,
  type OutboxEntry,
  type RowSnapshot,
  SYNC_TABLES,
  type SyncStateRow,
  entityKey,
  readSyncState,
  splitEntityKey,
} from './db.ts';
import { WRITABLE, WRITABLE_KINDS, isWritableKind } from './kinds.ts';
import { RebaseCache, type RebaseStore, ensureShadow, entriesTouching, recompute } from './rebase.ts';
import { reportStorageError } from './storage.ts';
import { writingMarksCoalesce } from './writing.ts';

/** What one mutation queues: its request and its local effects (the outbox entry's own fields). */
export type MutationSpec = Pick<OutboxEntry, 'kind' | 'method' | 'path' | 'body' | 'entity' | 'entityId' | 'seriesId' | 'effects'> & {
  /** The local row of (entity, entityId) as `build` read it (null: none), so it is not read twice. */
  current?: AnyRow | null;
};

const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Ids a request mentions (path and body): a rejected create takes every later entry naming it. */
export function referencedIds(entry: Pick<OutboxEntry, 'path' | 'body' | 'entityId'>): Set<string> {
  const text = `${entry.entityId} ${entry.path} ${JSON.stringify(entry.body ?? null)}`;
  return new Set((text.match(UUID_IN_TEXT) ?? []).map((s) => s.toLowerCase()));
}

function uniqueTargets(effects: readonly Effect[]): { entity: EntityKind; id: string }[] {
  const seen = new Map<string, { entity: EntityKind; id: string }>();
  for (const e of effects) seen.set(entityKey(e.entity, e.id), { entity: e.entity, id: e.id });
  return [...seen.values()];
}

function mergePatchEffects(older: Effect[], newer: Effect[]): Effect[] {
  const out = older.map((e) => ({ ...e }));
  for (const effect of newer) {
    const same = out.find((e) => e.op === 'patch' && effect.op === 'patch' && e.entity === effect.entity && e.id === effect.id);
    if (same && same.op === 'patch' && effect.op === 'patch') same.fields = { ...same.fields, ...effect.fields };
    else out.push(effect);
  }
  return out;
}

/** The create body with an update folded in, or null when the create route could not take it. */
function foldIntoCreate(entity: EntityKind, createBody: unknown, updateBody: unknown): Record<string, unknown> | null {
  if (!isWritableKind(entity)) return null;
  const { createBody: schema, notFoldableIntoCreate = [] } = WRITABLE[entity];
  const update = (updateBody ?? {}) as Record<string, unknown>;
  if (Object.keys(update).some((field) => notFoldableIntoCreate.includes(field))) return null;
  const create = createBody as Record<string, unknown> & { id: string };
  const result = schema.safeParse({ ...create, ...update });
  return result.success ? { ...result.data, id: create.id } : null;
}

/** The kinds a request may name a local-only row of (a create not acknowledged yet). */
const REFERABLE_KINDS: readonly EntityKind[] = WRITABLE_KINDS.filter((kind) => WRITABLE[kind].referable);

/** The ids a request names, and its own row. */
interface References {
  ids: ReadonlySet<string>;
  own: { entity: EntityKind; id: string };
}

function referencesOf(request: Pick<OutboxEntry, 'path' | 'body' | 'entity' | 'entityId'>): References {
  return { ids: referencedIds(request), own: { entity: request.entity, id: request.entityId.toLowerCase() } };
}

/**
 * The shadows that say whether the ids a request names exist only locally. Its own row is looked
 * up as its own kind only: ids are UUIDv7, so no row of another kind has it.
 */
function referenceKeys({ ids, own }: References): string[] {
  return [...ids].flatMap((id) =>
    id === own.id ? (REFERABLE_KINDS.includes(own.entity) ? [entityKey(own.entity, id)] : []) : REFERABLE_KINDS.map((kind) => entityKey(kind, id)),
  );
}

/** Ids the request names that exist only locally (creates not acknowledged yet, its own included). */
async function localOnlyReferences(store: RebaseStore, references: References): Promise<string[]> {
  const out: string[] = [];
  for (const key of referenceKeys(references)) {
    const [entity, id] = splitEntityKey(key);
    const s = await store.shadow(entity, id);
    if (s && s.row === null && s.rev === 0) out.push(id);
  }
  return out;
}

/**
 * Whether the request names another row that exists only here and whose create is queued after
 * `last`: riding on `last`, it would reach the server before the row it names (a place moved into
 * a place created after it, docs/decisions/0021-places-inside-places.md). It is then a request of
 * its own, queued after that create.
 */
async function namesLaterLocalCreate(store: RebaseCache, references: References, last: OutboxEntry): Promise<boolean> {
  for (const key of referenceKeys(references)) {
    const [entity, id] = splitEntityKey(key);
    if (id === references.own.id) continue;
    const s = await store.shadow(entity, id);
    if (!s || s.row !== null || s.rev !== 0) continue;
    const [create] = await store.entriesTouching(entity, id);
    if (create && create.seq! > last.seq!) return true;
  }
  return false;
}

/** The request a mutation is expected to make (its row, path and body): read ahead while `build` runs. */
export type ExpectedRequest = Pick<MutationSpec, 'entity' | 'entityId' | 'path' | 'body'>;

/**
 * Writes the effects and the outbox entry of one mutation in one transaction over every sync
 * table. `build` runs inside it (its reads see the same snapshot the writes apply to).
 *
 * After `build`, everything the rules read — the rows' shadows, local rows and queued work, the
 * sync state, the shadows of the ids the request names — is read in ONE wave of requests into a
 * transaction-scoped cache (rebase.ts RebaseCache), the rules run against it, and the
 * changes are written back in one more wave: a few round trips to IndexedDB per mutation instead
 * of one per read and write.
 */
export async function commit(
  db: ChroniclerDb,
  now: () => number,
  build: () => Promise<MutationSpec>,
  expected?: ExpectedRequest,
): Promise<MutationSpec> {
  try {
    return await db.transaction('rw', SYNC_TABLES as unknown as string[], async (tx) => {
      const cache = new RebaseCache(tx);
      const syncState = tx.table<SyncStateRow, string>('syncState');
      /** Everything the rules read about `keys` (the rows a request touches) and the ids it names. */
      const load = (keys: readonly string[], references: References) =>
        cache.loadAtOnce(keys, [...new Set([...keys, ...referenceKeys(references)])], keys);
      // What the request will touch and name is usually known before `build` reads anything: read
      // it alongside, in the same wave.
      const expectedReferences = expected ? referencesOf(expected) : undefined;
      const [spec, stateRow] = await Promise.all([
        build(),
        syncState.get('state'),
        // The row itself comes from build (spec.current).
        expected
          ? cache.loadAtOnce([entityKey(expected.entity, expected.entityId)], [entityKey(expected.entity, expected.entityId), ...referenceKeys(expectedReferences!)], [])
          : undefined,
      ]);
      if (spec.current !== undefined) cache.knowRow(spec.entity, spec.entityId, spec.current);
      const targets = uniqueTargets(spec.effects);
      const targetKeys = targets.map((t) => entityKey(t.entity, t.id));
      const asExpected = expected && spec.entity === expected.entity && spec.entityId === expected.entityId && spec.path === expected.path && spec.body === expected.body;
      const references = asExpected ? expectedReferences! : referencesOf(spec);
      await load([...new Set([entityKey(spec.entity, spec.entityId), ...targetKeys])], references);

      const before: RowSnapshot[] = [];
      for (const t of targets) {
        before.push({ entity: t.entity, id: t.id, row: await ensureShadow(cache, t.entity, t.id) });
      }

      const earlier = await entriesTouching(cache, spec.entity, spec.entityId);
      const last = earlier[earlier.length - 1];
      // The last entry of this row has never been sent (not even in a batch whose answer was lost).
      const unsent =
        spec.kind === 'update' &&
        !!last &&
        last.entity === spec.entity &&
        last.entityId === spec.entityId &&
        last.status === 'pending' &&
        last.attempts === 0 &&
        spec.effects.every((e) => e.entity === spec.entity && e.id === spec.entityId) &&
        writingMarksCoalesce(last.body, spec.body) &&
        !(await namesLaterLocalCreate(cache, references, last));
      const folded = unsent && last.kind === 'create' ? foldIntoCreate(spec.entity, last.body, spec.body) : null;
      let stateWrite: Promise<unknown> = Promise.resolve();
      if (unsent && (last.kind === 'update' || folded)) {
        // Coalesce: one request carries both changes. Into an update, the base stays the earliest
        // one; into the row's create, the POST carries the fields and nothing waits for its answer.
        const dependsOn = [...new Set([...(last.dependsOn ?? []), ...(await localOnlyReferences(cache, references))])];
        cache.updateEntry(last.seq!, {
          body: folded ?? { ...(last.body as object), ...(spec.body as object) },
          effects: mergePatchEffects(last.effects, spec.effects),
          ...(dependsOn.length > 0 ? { dependsOn } : {}),
        });
      } else {
        const state = stateRow ?? (await readSyncState(db));
        stateWrite = syncState.put({ ...state, nextMutationId: state.nextMutationId + 1 });
        const shadow = await cache.shadow(spec.entity, spec.entityId);
        const chained = spec.kind === 'update' && earlier.length > 0;
        const dependsOn = await localOnlyReferences(cache, references);
        const entry: OutboxEntry = {
          idemKey: newId(now()),
          mutationId: state.nextMutationId,
          kind: spec.kind,
          method: spec.method,
          path: spec.path,
          body: spec.body,
          entity: spec.entity,
          entityId: spec.entityId,
          seriesId: spec.seriesId,
          baseRev: spec.kind === 'update' && !chained ? (shadow?.rev ?? null) : null,
          before,
          effects: spec.effects,
          touches: targets.map((t) => entityKey(t.entity, t.id)),
          attempts: 0,
          status: 'pending',
          nextAttemptAt: 0,
          createdAt: now(),
        };
        if (chained) entry.chained = true;
        if (dependsOn.length > 0) entry.dependsOn = [...new Set(dependsOn)];
        cache.addEntry(entry);
      }
      for (const t of targets) await recompute(cache, t.entity, t.id);
      await Promise.all([cache.save(), stateWrite]);
      return spec;
    });
  } catch (error) {
    reportStorageError(error);
    throw error;
  }
}

