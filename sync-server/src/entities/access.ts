/**
 * Who may see and change what (docs/sync-protocol.md#access: access comes from the stored rows):
 * the decisions, from the stored columns queries.ts reads. No SQL here.
 *
 * A caller with no part in a series, an unknown id and (unless asked for) a deleted row are all
 * 404, never 403, so foreign ids are indistinguishable from unknown ones; 403 is for a known
 * series whose role is too low for the change.
 */
import { type AccessLevel, ERROR_CODES, type SeriesRole, forbiddenMessageFor, memberRoleOf, roleAllows } from '@chronicler/schema';
import { HttpError, notFound } from '../http/errors.ts';

// The roles and what each may do are the shared rule (packages/schema collaboration.ts).
export type { AccessLevel, SeriesRole };

export interface SeriesAccess {
  seriesId: string;
  ownerId: string;
  role: SeriesRole;
  deleted: boolean;
}

/** The stored series columns access is decided by. */
export interface SeriesStanding {
  seriesId: string;
  ownerId: string;
  deletedAt: string | null;
}

export interface LoadOptions {
  /** What the caller means to do; 'read' by default. */
  level?: AccessLevel;
  /** Return deleted rows too (updates answer them with mergeStatus 'deleted'); REST reads 404. */
  includeDeleted?: boolean;
}

/** The owner needs no membership; anyone else's standing is their live seriesMembers row. */
export function isOwner(series: SeriesStanding, userId: string): boolean {
  return series.ownerId === userId;
}

/**
 * The caller's standing in a series: owner, or the role of their live membership (`memberRole`,
 * null when they have none — then no access at all).
 */
export function accessFrom(series: SeriesStanding, userId: string, memberRole: string | null): SeriesAccess | null {
  const { seriesId, ownerId } = series;
  const deleted = series.deletedAt !== null;
  if (isOwner(series, userId)) return { seriesId, ownerId, role: 'owner', deleted };
  if (memberRole === null) return null;
  return { seriesId, ownerId, role: memberRoleOf(memberRole), deleted };
}

export function assertLevel(access: SeriesAccess, level: AccessLevel): void {
  if (!roleAllows(access.role, level)) throw new HttpError(403, ERROR_CODES.forbidden, forbiddenMessageFor(level));
}

/** A row whose series gives the caller `access` (null: none) may be used as `options` ask, or 404/403. */
export function assertAllowed(access: SeriesAccess | null, rowDeletedAt: string | null, options: LoadOptions): SeriesAccess {
  if (!access) throw notFound();
  if (!options.includeDeleted && (rowDeletedAt !== null || access.deleted)) throw notFound();
  assertLevel(access, options.level ?? 'read');
  return access;
}
