/**
 * A location's parent (docs/decisions/0021-places-inside-places.md), checked in the write's
 * transaction — the body is never trusted:
 *
 * - it must be a location of the same series (422, unknown and foreign ids alike, so an id is
 *   never confirmed to exist);
 * - deleted on another device first: the place goes where that delete moved the deleted place's
 *   children — its nearest live place above, or the top level (story/dangling.ts: both orders
 *   store the same row);
 * - never the place itself or a place inside it (422): the stored tree has no cycle, so two
 *   devices' concurrent moves that would make one after a merge meet here, and the second is
 *   refused (its device reverts it and says why).
 */
import { nearestLivePlace, type PlaceLink, PLACE_MESSAGES, placeMoveProblem } from '@chronicler/schema';
import { type Db, findRow } from '../entities/queries.ts';
import { invalid } from './common.ts';

/** The stored place in `seriesId`, deleted or not; undefined when unknown or in another series. */
async function placeOfSeries(db: Db, seriesId: string, id: string) {
  const row = await findRow(db, 'locations', id);
  return row && row.seriesId === seriesId ? row : undefined;
}

/** The places from `parentId` up to the top, as stored (bounded: a damaged store must not hang a write). */
async function chainAbove(db: Db, seriesId: string, parentId: string): Promise<Map<string, PlaceLink>> {
  const chain = new Map<string, PlaceLink>();
  for (let at: string | null = parentId; at !== null && !chain.has(at) && chain.size < 10_000; ) {
    const place = await placeOfSeries(db, seriesId, at);
    if (!place) break;
    chain.set(place.id, { id: place.id, parentId: place.parentId ?? null });
    at = place.parentId ?? null;
  }
  return chain;
}

/**
 * The parent to store for place `id` (null when the body asks for the top level). `id` is the
 * place being moved; a create's new id cannot be anyone's parent yet, but is checked the same way.
 */
export async function resolvePlaceParent(db: Db, seriesId: string, id: string | undefined, parentId: string | null): Promise<string | null> {
  if (parentId === null) return null;
  const named = await placeOfSeries(db, seriesId, parentId);
  if (!named) throw invalid(PLACE_MESSAGES.otherSeries, 'parentId');
  const parent = named.deletedAt === null ? named.id : await nearestLivePlace((at) => placeOfSeries(db, seriesId, at), named.parentId);
  if (parent === null || id === undefined) return parent;
  const problem = placeMoveProblem(await chainAbove(db, seriesId, parent), id, parent);
  if (problem !== null) throw invalid(problem, 'parentId');
  return parent;
}
