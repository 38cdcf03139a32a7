/**
 * The series as the companion sees it, and its spoiler-safe view: with a book chosen, nothing first
 * appearing after that book is used (docs/server.md#ai-companion). Books are numbered by their
 * order in the series, which is what characters' and locations' `bookAppearances` count
 * (packages/schema book-appearances.ts).
 */
import type { Book, Chapter, Character, CharacterRelationship, Location, TimelineEvent, WorldEntry } from '@chronicler/schema';

export interface SeriesMaterial {
  seriesTitle: string;
  books: ReadonlyArray<Pick<Book, 'id' | 'title' | 'position'>>;
  chapters: ReadonlyArray<Pick<Chapter, 'id' | 'bookId' | 'title' | 'position' | 'content'>>;
  // aliases and alwaysInclude: optional, as a row kept on a device from before them may lack them.
  characters: ReadonlyArray<
    Pick<Character, 'id' | 'name' | 'role' | 'status' | 'isProtagonist' | 'bookAppearances' | 'goals' | 'description'> &
      Partial<Pick<Character, 'aliases' | 'alwaysInclude'>>
  >;
  relationships: ReadonlyArray<Pick<CharacterRelationship, 'id' | 'sourceCharacterId' | 'targetCharacterId' | 'relationshipType' | 'description'>>;
  // alwaysInclude: optional, as for characters.
  locations: ReadonlyArray<Pick<Location, 'id' | 'name' | 'locationType' | 'importance' | 'bookAppearances' | 'description'> & Partial<Pick<Location, 'alwaysInclude'>>>;
  events: ReadonlyArray<Pick<TimelineEvent, 'id' | 'title' | 'bookId' | 'chapterId' | 'characterIds' | 'locationId' | 'importance' | 'position' | 'description'>>;
  /** Cultures, magic systems, species, technologies, factions (docs/decisions/0020-world-entries.md); absent: none. */
  worldEntries?: ReadonlyArray<
    Pick<WorldEntry, 'id' | 'category' | 'name' | 'summary' | 'bookAppearances' | 'characterIds' | 'locationIds' | 'entryIds' | 'leaderId' | 'allyIds' | 'enemyIds'>
  >;
}

export type MaterialCharacter = SeriesMaterial['characters'][number];

/** Books in series order; a book's number is its index + 1. */
export function orderedBooks(material: Pick<SeriesMaterial, 'books'>): SeriesMaterial['books'] {
  return [...material.books].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
}

export function bookNumbers(material: Pick<SeriesMaterial, 'books'>): Map<string, number> {
  return new Map(orderedBooks(material).map((b, i) => [b.id, i + 1]));
}

const firstAppearance = (appearances: readonly number[]): number => (appearances.length === 0 ? 0 : Math.min(...appearances));

/** A main character: the protagonist role or the starred flag (docs/spec-differences.md). */
export function isMainCharacter(c: Pick<MaterialCharacter, 'role' | 'isProtagonist'>): boolean {
  return c.isProtagonist || c.role === 'protagonist';
}

/**
 * Only what a reader of books 1..N knows, N being the chosen book's number: later books, their
 * chapters and events, characters and places first appearing later, and relationships to them
 * are left out. A character who is still in later books is not yet known to be dead.
 * With no book chosen (null or unknown), the whole series.
 */
export function spoilerSafe(material: SeriesMaterial, bookId: string | null | undefined): SeriesMaterial {
  const numbers = bookNumbers(material);
  const chosen = bookId ? numbers.get(bookId) : undefined;
  if (chosen === undefined) return material;
  const books = material.books.filter((b) => numbers.get(b.id)! <= chosen);
  const bookIds = new Set(books.map((b) => b.id));
  const chapters = material.chapters.filter((c) => bookIds.has(c.bookId));
  const chapterIds = new Set(chapters.map((c) => c.id));
  const characters = material.characters
    .filter((c) => firstAppearance(c.bookAppearances) <= chosen)
    .map((c) => (c.status === 'deceased' && c.bookAppearances.some((n) => n > chosen) ? { ...c, status: 'alive' as const } : c));
  const characterIds = new Set(characters.map((c) => c.id));
  const locations = material.locations.filter((l) => firstAppearance(l.bookAppearances) <= chosen);
  const locationIds = new Set(locations.map((l) => l.id));
  const events = material.events
    .filter((e) => (e.bookId === null || bookIds.has(e.bookId)) && (e.chapterId === null || chapterIds.has(e.chapterId)))
    .map((e) => ({
      ...e,
      characterIds: e.characterIds.filter((id) => characterIds.has(id)),
      locationId: e.locationId !== null && locationIds.has(e.locationId) ? e.locationId : null,
    }));
  const relationships = material.relationships.filter((r) => characterIds.has(r.sourceCharacterId) && characterIds.has(r.targetCharacterId));
  // World entries as characters: none first appearing later, and no link to what a reader does not know yet.
  const entries = (material.worldEntries ?? []).filter((e) => firstAppearance(e.bookAppearances) <= chosen);
  const entryIds = new Set(entries.map((e) => e.id));
  const worldEntries = entries.map((e) => ({
    ...e,
    characterIds: e.characterIds.filter((id) => characterIds.has(id)),
    locationIds: e.locationIds.filter((id) => locationIds.has(id)),
    entryIds: e.entryIds.filter((id) => entryIds.has(id)),
    allyIds: e.allyIds.filter((id) => entryIds.has(id)),
    enemyIds: e.enemyIds.filter((id) => entryIds.has(id)),
    leaderId: e.leaderId !== null && characterIds.has(e.leaderId) ? e.leaderId : null,
  }));
  return { seriesTitle: material.seriesTitle, books, chapters, characters, relationships, locations, events, worldEntries };
}

/** The names a text may use for an entry: its full name and, for a person, a first name of 3+ letters. */
export function namesOf(name: string, person: boolean): string[] {
  const full = name.trim();
  const names = [full];
  const first = full.split(/\s+/)[0] ?? '';
  if (person && first !== full && first.length >= 3) names.push(first);
  return names;
}

/** The names a text may use for a character: its name, its first name (namesOf) and its aliases. */
export function characterNames(c: Pick<MaterialCharacter, 'name' | 'aliases'>): string[] {
  return [...namesOf(c.name, true), ...(c.aliases ?? [])];
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/**
 * Lower-cased words of a text, to test mentions in one set look-up per name word. A word with an
 * apostrophe also gives its first part, so "Mara's" mentions Mara (and "O'Brien" stays whole).
 */
export function wordSet(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    words.add(word);
    const cut = word.search(/['’]/);
    if (cut > 0) words.add(word.slice(0, cut));
  }
  return words;
}

/** Per name of several words: a pattern for those words in order, whole words, any separators between. */
const phrasePatterns = new Map<string, RegExp>();

function phrasePattern(parts: readonly string[]): RegExp {
  const key = parts.join(' ');
  let pattern = phrasePatterns.get(key);
  if (!pattern) {
    // The parts are letters, digits and apostrophes only (WORD): nothing to escape.
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${parts.join('[^\\p{L}\\p{N}]+')}(?![\\p{L}\\p{N}])`, 'u');
    if (phrasePatterns.size >= 5_000) phrasePatterns.clear();
    phrasePatterns.set(key, pattern);
  }
  return pattern;
}

/**
 * Whether a text mentions one of `names` as whole words, case-insensitively, given its word set and
 * (for names of several words) a function giving its lower-cased text, made once per text by the caller.
 */
export function mentions(text: string | (() => string), words: ReadonlySet<string>, names: readonly string[]): boolean {
  let lowered: string | undefined;
  const lower = () => (lowered ??= typeof text === 'string' ? text.toLowerCase() : text());
  return names.some((name) => {
    const parts = name.toLowerCase().match(WORD) ?? [];
    if (parts.length === 0 || !parts.every((p) => words.has(p))) return false;
    if (parts.length === 1) return true;
    return phrasePattern(parts).test(lower());
  });
}
