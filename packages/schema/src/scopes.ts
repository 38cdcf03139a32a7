/**
 * Where a synced row belongs, in one place for both sides: to a series (every story kind; a series
 * is its own) or to one author (USER_SCOPED_KINDS). Code that used to assume "every row has a
 * series" — the client's pull and purge, the server's writes, feed and SSE fan-out — asks here.
 */
import {
  ENTITY_KINDS,
  type EntityKind,
  type EntityRowByKind,
  type SeriesScopedKind,
  USER_SCOPED_KINDS,
  type UserScopedKind,
} from './entities.ts';

const USER_SCOPED: ReadonlySet<EntityKind> = new Set(USER_SCOPED_KINDS);

export function isUserScopedKind(kind: EntityKind): kind is UserScopedKind {
  return USER_SCOPED.has(kind);
}

/** The kinds whose rows belong to a series, the series itself first. */
export const SERIES_SCOPED_KINDS: readonly SeriesScopedKind[] = ENTITY_KINDS.filter((k): k is SeriesScopedKind => !isUserScopedKind(k));

/** What a row belongs to: exactly one of a series or an author. */
export type RowScope = { seriesId: string; userId?: undefined } | { userId: string; seriesId?: undefined };

/** The scope of a row of `kind` (a series is its own series; a user-scoped row names its owner). */
export function scopeOfRow(kind: EntityKind, row: { id: string } & object): RowScope {
  if (isUserScopedKind(kind)) return { userId: String((row as { userId?: unknown }).userId) };
  if (kind === 'series') return { seriesId: row.id };
  return { seriesId: String((row as { seriesId?: unknown }).seriesId) };
}

/** The series a row belongs to, or null for a user-scoped row. */
export function seriesIdOfRow(kind: EntityKind, row: EntityRowByKind[EntityKind] | ({ id: string } & object)): string | null {
  return scopeOfRow(kind, row).seriesId ?? null;
}
