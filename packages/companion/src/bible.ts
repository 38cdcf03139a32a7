/**
 * The compact series bible sent to a model as context (docs/server.md#ai-companion), chosen the way
 * authors' favourite tools do it (lorebooks / codex entries): the entries whose names or aliases
 * are mentioned in the text at hand (case-insensitive, whole words; a person's first name counts
 * too), the chosen book's point-of-view characters (its main characters), the characters the author
 * marked "always include", the main locations and the locations marked "always include" — and never
 * anything first appearing after the chosen book (spoilerSafe runs first, so an "always include"
 * character of a later book is not there).
 */
import { WORLD_CATEGORY_NAMES } from '@chronicler/schema';
import { type SeriesMaterial, bookNumbers, characterNames, isMainCharacter, mentions, namesOf, spoilerSafe, wordSet } from './material.ts';

export const BIBLE_MAX_ENTRIES = 40;
export const BIBLE_MAX_CHARS = 6_000;
const ENTRY_TEXT_CHARS = 240;

export interface BibleOptions {
  bookId?: string | null | undefined;
  /** The text at hand (the chapter, the pasted text); entries it names are included. */
  text?: string;
}

function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > ENTRY_TEXT_CHARS ? `${t.slice(0, ENTRY_TEXT_CHARS - 1)}…` : t;
}

/** The bible as lines of text, most important first, within BIBLE_MAX_ENTRIES and BIBLE_MAX_CHARS. */
export function seriesBible(material: SeriesMaterial, options: BibleOptions = {}): string {
  const m = spoilerSafe(material, options.bookId);
  const numbers = bookNumbers(m);
  const chosen = options.bookId ? numbers.get(options.bookId) : undefined;
  const text = options.text ?? '';
  const words = wordSet(text);
  const named = (names: readonly string[]) => text !== '' && mentions(text, words, names);

  type Entry = { rank: number; line: string };
  const entries: Entry[] = [];
  const mentioned = new Set<string>();
  for (const c of m.characters) {
    const pov = isMainCharacter(c) && (chosen === undefined || c.bookAppearances.length === 0 || c.bookAppearances.includes(chosen));
    if (named(characterNames(c))) mentioned.add(c.id);
    const rank = mentioned.has(c.id) ? 0 : pov || c.alwaysInclude ? 1 : -1;
    if (rank < 0) continue;
    const aliases = (c.aliases ?? []).length ? `, also called ${c.aliases!.join(', ')}` : '';
    const details = [c.role, c.status !== 'alive' ? c.status : '', c.goals ? `wants: ${clip(c.goals)}` : ''].filter(Boolean).join(', ');
    entries.push({ rank, line: `Character: ${c.name}${aliases} (${details})${c.description ? ` — ${clip(c.description)}` : ''}` });
  }
  const names = new Map(m.characters.map((c) => [c.id, c.name]));
  for (const r of m.relationships) {
    const a = names.get(r.sourceCharacterId);
    const b = names.get(r.targetCharacterId);
    if (a && b && (mentioned.has(r.sourceCharacterId) || mentioned.has(r.targetCharacterId))) {
      entries.push({ rank: 1, line: `Relationship: ${a} — ${b}: ${r.relationshipType}${r.description ? ` (${clip(r.description)})` : ''}` });
    }
  }
  for (const l of m.locations) {
    // Main locations are in without the mark (as they were before it existed): the mark adds a place, it never drops one.
    const rank = named(namesOf(l.name, false)) ? 0 : l.importance === 'main' || l.alwaysInclude ? 2 : -1;
    if (rank >= 0) entries.push({ rank, line: `Location: ${l.name} (${l.locationType})${l.description ? ` — ${clip(l.description)}` : ''}` });
  }
  // World entries the text names, with their links by name: what a culture's people or a faction's leader is.
  const linkNames = new Map<string, string>([...names, ...m.locations.map((l) => [l.id, l.name] as const), ...(m.worldEntries ?? []).map((e) => [e.id, e.name] as const)]);
  const linked = (ids: readonly string[]) => ids.flatMap((id) => linkNames.get(id) ?? []);
  for (const e of m.worldEntries ?? []) {
    if (!named(namesOf(e.name, false))) continue;
    const links = [
      e.leaderId ? `led by ${linkNames.get(e.leaderId) ?? ''}` : '',
      linked(e.allyIds).length ? `allies: ${linked(e.allyIds).join(', ')}` : '',
      linked(e.enemyIds).length ? `enemies: ${linked(e.enemyIds).join(', ')}` : '',
      linked([...e.characterIds, ...e.locationIds, ...e.entryIds]).length ? `linked: ${linked([...e.characterIds, ...e.locationIds, ...e.entryIds]).join(', ')}` : '',
    ].filter((part) => part !== '' && part !== 'led by ');
    const summary = e.summary ? ` — ${clip(e.summary)}` : '';
    entries.push({ rank: 0, line: `${WORLD_CATEGORY_NAMES[e.category].one}: ${e.name}${links.length ? ` (${links.join('; ')})` : ''}${summary}` });
  }
  const books = [...m.books].sort((a, b) => a.position - b.position).map((b) => b.title);
  const header = `Series: ${m.seriesTitle}${books.length ? `. Books so far: ${books.join('; ')}` : ''}.`;
  entries.sort((a, b) => a.rank - b.rank);
  const lines = [header];
  let size = header.length;
  for (const e of entries.slice(0, BIBLE_MAX_ENTRIES)) {
    if (size + e.line.length + 1 > BIBLE_MAX_CHARS) break;
    lines.push(e.line);
    size += e.line.length + 1;
  }
  return lines.join('\n');
}
