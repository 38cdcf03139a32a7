/**
 * Pure rules of the Locations tab (spec 001 §2 "World Building page", §3 Location, §9): labels,
 * the search, and the order of the cards.
 */
import { LOCATION_IMPORTANCE, LOCATION_TYPES, locationAppearanceLabel, type Location } from '@chronicler/schema';

export type LocationType = (typeof LOCATION_TYPES)[number];
export type LocationImportance = (typeof LOCATION_IMPORTANCE)[number];

export const LOCATION_TYPE_LABELS: Readonly<Record<LocationType, string>> = {
  city: 'City',
  town: 'Town',
  village: 'Village',
  castle: 'Castle',
  forest: 'Forest',
  mountain: 'Mountain',
  ocean: 'Ocean',
  river: 'River',
  desert: 'Desert',
  island: 'Island',
  cave: 'Cave',
  ruins: 'Ruins',
  general: 'General',
  other: 'Other',
};

export const IMPORTANCE_LABELS: Readonly<Record<LocationImportance, string>> = {
  main: 'Main',
  secondary: 'Secondary',
  minor: 'Minor',
};

/** Options for the type selector, in the spec's order. */
export const LOCATION_TYPE_OPTIONS = LOCATION_TYPES.map((value) => ({ value, label: LOCATION_TYPE_LABELS[value] }));
export const IMPORTANCE_OPTIONS = LOCATION_IMPORTANCE.map((value) => ({ value, label: IMPORTANCE_LABELS[value] }));

export function locationTypeLabel(type: string): string {
  return LOCATION_TYPE_LABELS[type as LocationType] ?? LOCATION_TYPE_LABELS.other;
}

export function importanceLabel(importance: string): string {
  return IMPORTANCE_LABELS[importance as LocationImportance] ?? IMPORTANCE_LABELS.secondary;
}

/** "Books 1, 3, 5", "Book 2", or "No book appearances" for a card (numbers from locationAppearanceLabel). */
export function appearanceText(bookAppearances: readonly number[]): string {
  const label = locationAppearanceLabel(bookAppearances);
  if (label === 'None') return 'No book appearances';
  return label.includes(',') ? `Books ${label}` : `Book ${label}`;
}

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The search box: a case- and accent-insensitive substring match on the name, the description or
 * the type label. A blank query keeps every location.
 */
export function matchesSearch(location: Pick<Location, 'name' | 'description' | 'locationType'>, query: string): boolean {
  const q = fold(query.trim());
  if (q === '') return true;
  return (
    fold(location.name).includes(q) || fold(location.description).includes(q) || fold(locationTypeLabel(location.locationType)).includes(q)
  );
}

const IMPORTANCE_RANK: Readonly<Record<string, number>> = { main: 0, secondary: 1, minor: 2 };
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Main locations first, then secondary, then minor; by name within each (case-insensitive). */
export function compareLocations(a: Location, b: Location): number {
  return (
    (IMPORTANCE_RANK[a.importance] ?? 1) - (IMPORTANCE_RANK[b.importance] ?? 1) ||
    collator.compare(a.name, b.name) ||
    a.createdAt.localeCompare(b.createdAt) ||
    a.id.localeCompare(b.id)
  );
}

/** The cards to show for `query`, in display order. */
export function visibleLocations(locations: readonly Location[], query: string): Location[] {
  return locations.filter((l) => matchesSearch(l, query)).sort(compareLocations);
}
