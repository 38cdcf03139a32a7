/**
 * The three character tabs (spec 001 §4): Main shows characters with isProtagonist; Supporting
 * shows non-protagonists whose role is not minor; Minor shows role minor. All three also apply the
 * name search, a case-insensitive substring match.
 */
import type { Character } from '@chronicler/schema';

export const CHARACTER_TABS = ['main', 'supporting', 'minor'] as const;
export type CharacterTab = (typeof CHARACTER_TABS)[number];

export const TAB_LABELS: Readonly<Record<CharacterTab, string>> = {
  main: 'Main Characters',
  supporting: 'Supporting Characters',
  minor: 'Minor Characters',
};

type Filterable = Pick<Character, 'name' | 'role' | 'isProtagonist'>;

export function inTab(character: Filterable, tab: CharacterTab): boolean {
  switch (tab) {
    case 'main':
      return character.isProtagonist;
    case 'supporting':
      return !character.isProtagonist && character.role !== 'minor';
    case 'minor':
      return character.role === 'minor';
  }
}

export function matchesSearch(character: Pick<Character, 'name'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === '' || character.name.toLowerCase().includes(needle);
}

/** The characters of one tab that match the search, by name. */
export function filterCharacters<C extends Filterable>(characters: readonly C[], tab: CharacterTab, search: string): C[] {
  return characters
    .filter((c) => inTab(c, tab) && matchesSearch(c, search))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/** How many characters each tab shows for the search (tab badges). */
export function tabCounts(characters: readonly Filterable[], search: string): Record<CharacterTab, number> {
  const counts: Record<CharacterTab, number> = { main: 0, supporting: 0, minor: 0 };
  for (const c of characters) {
    if (!matchesSearch(c, search)) continue;
    for (const tab of CHARACTER_TABS) if (inTab(c, tab)) counts[tab] += 1;
  }
  return counts;
}
