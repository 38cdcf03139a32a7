/**
 * Plan limits and feature gates on the server (docs/server.md#plan-limits-and-feature-gates), from
 * THE plan table in packages/schema. The series owner's plan governs everything inside a series;
 * limits count live rows.
 */
import { ERROR_CODES, type EntityKind, gateState, isUnlimited } from '@chronicler/schema';
import { HttpError } from '../http/errors.ts';
import { type Db, countLive, ownerPlan, userPlan } from './queries.ts';
import { ENTITIES } from './registry.ts';

/** Writes of relationships, timeline events and world entries need their feature on the owner's plan; reads never do. */
export async function assertWriteFeature(db: Db, kind: EntityKind, seriesId: string): Promise<void> {
  const feature = ENTITIES[kind].writeFeature;
  if (feature === null) return;
  const gate = gateState({ plan: await ownerPlan(db, seriesId), feature });
  if (gate.locked) throw new HttpError(403, ERROR_CODES.featureLocked, gate.message);
}

/**
 * One more row of `kind` must fit the plan: series count per owner (the creator's plan), the
 * others per series (the owner's plan).
 */
export async function assertCreateLimit(db: Db, kind: EntityKind, scope: { seriesId: string } | { ownerId: string }): Promise<void> {
  const limit = ENTITIES[kind].createLimit;
  if (limit === null) return;
  const plan = 'ownerId' in scope ? await userPlan(db, scope.ownerId) : await ownerPlan(db, scope.seriesId);
  // No limit on this plan: nothing to count (a count reads every live row of the series).
  if (isUnlimited(plan, limit)) return;
  const count =
    'ownerId' in scope ? await countLive(db, kind, 'ownerId', scope.ownerId) : await countLive(db, kind, 'seriesId', scope.seriesId);
  const gate = gateState({ plan, limit, count });
  if (gate.locked) throw new HttpError(403, ERROR_CODES.planLimit, gate.message);
}

/** Both checks a create makes, in the order a user should hear about them. */
export async function assertCanCreate(db: Db, kind: EntityKind, seriesId: string): Promise<void> {
  await assertWriteFeature(db, kind, seriesId);
  await assertCreateLimit(db, kind, { seriesId });
}
