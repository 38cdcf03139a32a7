/**
 * Pure rules of the world entry tabs (docs/decisions/0020-world-entries.md): which tab shows which
 * category, the search, the sort and the filters of a tab's list.
 */
import {
  WORLD_CATEGORY_NAMES,
  WORLD_DANGER_LEVELS,
  type WorldCategory,
  type WorldDanger,
  type WorldEntry,
  visibleText,
} from '@chronicler/schema';

export { WORLD_TAB_OF as CATEGORY_TABS } from '@/lib/worldEntryPath';

export const DANGER_LABELS: Readonly<Record<WorldDanger, string>> = {
  unknown: 'Unknown',
  harmless: 'Harmless',
  low: 'Low',
  moderate: 'Moderate',
  high: 'High',
  deadly: 'Deadly',
};
export const DANGER_OPTIONS = WORLD_DANGER_LEVELS.map((value) => ({ value, label: DANGER_LABELS[value] }));

export const SORTS = {
  name: 'Name (A–Z)',
  nameDesc: 'Name (Z–A)',
  updated: 'Recently edited',
  newest: 'Newest first',
  oldest: 'Oldest first',
} as const;
export type EntrySort = keyof typeof SORTS;
export const SORT_OPTIONS = (Object.keys(SORTS) as EntrySort[]).map((value) => ({ value, label: SORTS[value] }));

export interface EntryFilters {
  query: string;
  sort: EntrySort;
  /** A tag the entry must have (ignoring case); null: any. */
  tag: string | null;
  /** A book number the entry must appear in; null: any. */
  book: number | null;
}

export const NO_FILTERS: EntryFilters = { query: '', sort: 'name', tag: null, book: null };

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** What the search reads of an entry: its name, summary, tags and the visible words of its texts. */
function searchText(entry: WorldEntry): string {
  const texts = [entry.name, entry.summary, entry.tags.join(' '), entry.description, entry.language, entry.beliefs, entry.customs, entry.source, entry.costs, entry.limitations, entry.habitat, entry.era, entry.goals];
  return fold(texts.map((t) => (t.includes('*') || t.includes('\\') ? visibleText(t) : t)).join('\n'));
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

const COMPARE: Readonly<Record<EntrySort, (a: WorldEntry, b: WorldEntry) => number>> = {
  name: (a, b) => collator.compare(a.name, b.name),
  nameDesc: (a, b) => collator.compare(b.name, a.name),
  updated: (a, b) => b.updatedAt.localeCompare(a.updatedAt),
  newest: (a, b) => b.createdAt.localeCompare(a.createdAt),
  oldest: (a, b) => a.createdAt.localeCompare(b.createdAt),
};

/**
 * A tab's rows for the filters, in their order: a case- and accent-insensitive substring match on
 * the entry's text, its tag and its book; ties by name then id, so the order never jumps.
 */
export function visibleEntries(entries: readonly WorldEntry[], filters: EntryFilters): WorldEntry[] {
  const q = fold(filters.query.trim());
  const tag = filters.tag === null ? null : filters.tag.toLowerCase();
  const compare = COMPARE[filters.sort];
  return entries
    .filter(
      (e) =>
        (tag === null || e.tags.some((t) => t.toLowerCase() === tag)) &&
        (filters.book === null || e.bookAppearances.includes(filters.book)) &&
        (q === '' || searchText(e).includes(q)),
    )
    .sort((a, b) => compare(a, b) || collator.compare(a.name, b.name) || a.id.localeCompare(b.id));
}

/** The tags in use in a tab, each once (the first spelling met), sorted. */
export function tagsInUse(entries: readonly WorldEntry[]): string[] {
  const byKey = new Map<string, string>();
  for (const e of entries) for (const t of e.tags) if (!byKey.has(t.toLowerCase())) byKey.set(t.toLowerCase(), t);
  return [...byKey.values()].sort((a, b) => collator.compare(a, b));
}

/** "1 culture", "3 factions". */
export function countOf(category: WorldCategory, n: number): string {
  const names = WORLD_CATEGORY_NAMES[category];
  return `${n.toLocaleString('en-US')} ${n === 1 ? names.one.toLowerCase() : names.many}`;
}
