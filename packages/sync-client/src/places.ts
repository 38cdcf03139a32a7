/**
 * A place's parent checked on the device before the write (docs/decisions/0021-places-inside-places.md),
 * by the rules the server applies again at write time (@chronicler/schema places.ts): a live place of
 * the same series, never the place itself or one inside it. The device's rows may be behind the
 * server's; the server's answer decides, and a refusal is reverted and reported like any other.
 */
import { PLACE_MESSAGES, type PlaceLink, placeMoveProblem } from '@chronicler/schema';
import { ValidationError } from './errors.ts';
import type { NewRowContext } from './kinds.ts';

/** Throws ValidationError (or NotFoundLocallyError for a parent not here) unless place `id` of `seriesId` may be inside `parentId`. */
export async function checkPlaceParent(
  { parent, liveWhere }: Pick<NewRowContext, 'parent' | 'liveWhere'>,
  seriesId: string,
  id: string,
  parentId: string | null | undefined,
): Promise<void> {
  if (parentId === null || parentId === undefined) return;
  const named = await parent('locations', parentId, PLACE_MESSAGES.parentMissing);
  if (named.seriesId !== seriesId) throw new ValidationError(PLACE_MESSAGES.otherSeries, { parentId: PLACE_MESSAGES.otherSeries });
  const places = await liveWhere('locations', 'seriesId', seriesId);
  const byId = new Map<string, PlaceLink>(places.map((p) => [p.id, { id: p.id, parentId: p.parentId ?? null }]));
  const problem = placeMoveProblem(byId, id, parentId);
  if (problem !== null) throw new ValidationError(problem, { parentId: problem });
}
