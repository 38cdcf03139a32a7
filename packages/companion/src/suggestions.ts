/**
 * Built-in suggestions drawn from the author's own series (docs/server.md#ai-companion): each rule
 * looks for something the series needs and names its real entities. Deterministic: the same series
 * and the same list of earlier suggestions give the same answer, so tests and the two sides agree.
 */
import { type AiSuggestionType, AI_SUGGESTION_TYPES } from '@chronicler/schema';
import { type MaterialCharacter, type SeriesMaterial, bookNumbers, characterNames, isMainCharacter, mentions, namesOf, orderedBooks, spoilerSafe, wordSet } from './material.ts';

export interface SuggestionDraft {
  type: AiSuggestionType;
  content: string;
  entityIds: string[];
}

/** A main character missing from this many of the latest written chapters is flagged. */
export const ABSENT_CHAPTERS = 3;
/** This many written chapters in a row without a timeline event is a gap. */
export const TIMELINE_GAP_CHAPTERS = 3;

interface Indexed {
  m: SeriesMaterial;
  numbers: Map<string, number>;
  /** Chapters in reading order with their word sets. */
  chapters: Array<SeriesMaterial['chapters'][number] & { book: number; words: Set<string>; lower: () => string }>;
  characters: Map<string, MaterialCharacter>;
  /** Per character id: the names a chapter may use for them (characterNames), made once. */
  names: Map<string, string[]>;
  bookTitle: Map<string, string>;
}

function index(m: SeriesMaterial): Indexed {
  const numbers = bookNumbers(m);
  const chapters = m.chapters
    .map((c) => {
      let lowered: string | undefined;
      return { ...c, book: numbers.get(c.bookId) ?? 0, words: wordSet(c.content), lower: () => (lowered ??= c.content.toLowerCase()) };
    })
    .sort((a, b) => a.book - b.book || a.position - b.position);
  return {
    m,
    numbers,
    chapters,
    characters: new Map(m.characters.map((c) => [c.id, c])),
    names: new Map(m.characters.map((c) => [c.id, characterNames(c)])),
    bookTitle: new Map(m.books.map((b) => [b.id, b.title])),
  };
}

type IndexedChapter = Indexed['chapters'][number];
/** Whether the chapter names the character (by name, first name or alias). */
const names = (x: Indexed, ch: IndexedChapter, c: MaterialCharacter) => mentions(ch.lower, ch.words, x.names.get(c.id) ?? characterNames(c));
const namesPlace = (ch: IndexedChapter, name: string) => mentions(ch.lower, ch.words, namesOf(name, false));
const pronoun = (c: MaterialCharacter) => c.name.split(/\s+/)[0];

function absentMainCharacters(x: Indexed): SuggestionDraft[] {
  const written = x.chapters.filter((c) => c.content.trim() !== '');
  if (written.length < ABSENT_CHAPTERS) return [];
  const recent = written.slice(-ABSENT_CHAPTERS);
  return x.m.characters
    .filter((c) => isMainCharacter(c) && c.status !== 'deceased' && !recent.some((ch) => names(x, ch, c)))
    .map((c) => {
      const last = [...written].reverse().find((ch) => names(x, ch, c));
      const since = last ? ` (last seen in "${last.title}")` : '';
      const goal = c.goals.trim() ? ` What has happened to their goal — ${c.goals.trim().replace(/\.$/, '')}?` : '';
      return {
        type: 'characterDevelopment' as const,
        content: `${c.name} has not appeared in the last ${ABSENT_CHAPTERS} chapters${since}. Give ${pronoun(c)} a scene that shows how the recent events changed them.${goal}`,
        entityIds: [c.id],
      };
    });
}

function pairsOf(x: Indexed, types: readonly string[]) {
  return x.m.relationships
    .filter((r) => types.includes(r.relationshipType))
    .map((r) => ({ r, a: x.characters.get(r.sourceCharacterId), b: x.characters.get(r.targetCharacterId) }))
    .filter((p): p is { r: typeof p.r; a: MaterialCharacter; b: MaterialCharacter } => p.a !== undefined && p.b !== undefined);
}

function enemiesWhoNeverMeet(x: Indexed): SuggestionDraft[] {
  const together = new Set<string>();
  for (const e of x.m.events) for (const a of e.characterIds) for (const b of e.characterIds) together.add(`${a} ${b}`);
  const place = x.m.locations.find((l) => l.importance === 'main') ?? x.m.locations[0];
  return pairsOf(x, ['enemy', 'conflict'])
    .filter(({ a, b }) => !together.has(`${a.id} ${b.id}`))
    .map(({ r, a, b }) => ({
      type: 'conflict' as const,
      content: `${a.name} and ${b.name} are ${r.relationshipType === 'enemy' ? 'enemies' : 'in conflict'} but never share a timeline event. Stage a confrontation${place ? ` at ${place.name}` : ''} that forces one of them to give something up.`,
      entityIds: [a.id, b.id, ...(place ? [place.id] : [])],
    }));
}

function relationshipsWithoutScene(x: Indexed): SuggestionDraft[] {
  return pairsOf(x, ['ally', 'family', 'romantic', 'mentor', 'professional', 'enemy', 'conflict'])
    .filter(({ a, b }) => !x.chapters.some((ch) => names(x, ch, a) && names(x, ch, b)))
    .map(({ r, a, b }) => ({
      type: 'dialogue' as const,
      content: `${a.name} and ${b.name} (${r.relationshipType}) never share a scene. Write a conversation where ${pronoun(a)} asks ${pronoun(b)} for something ${pronoun(b)} cannot easily give${r.description.trim() ? ` — remember: ${r.description.trim().replace(/\.$/, '')}` : ''}.`,
      entityIds: [a.id, b.id],
    }));
}

function unusedLocations(x: Indexed): SuggestionDraft[] {
  const used = new Set(x.m.events.map((e) => e.locationId).filter((id): id is string => id !== null));
  return x.m.locations
    .filter((l) => !used.has(l.id) && !x.chapters.some((ch) => namesPlace(ch, l.name)))
    .map((l) => ({
      type: 'worldBuilding' as const,
      content: `${l.name} (${l.locationType}) is never used in a scene or on the timeline. Set a scene there, or show what its people trade, fear and celebrate.`,
      entityIds: [l.id],
    }));
}

function eventsWithoutChapter(x: Indexed): SuggestionDraft[] {
  return [...x.m.events]
    .filter((e) => e.chapterId === null)
    .sort((a, b) => (a.importance === 'major' ? 0 : 1) - (b.importance === 'major' ? 0 : 1) || a.position - b.position)
    .map((e) => ({
      type: 'plotIdea' as const,
      content: `The event "${e.title}"${e.bookId ? ` in ${x.bookTitle.get(e.bookId) ?? 'its book'}` : ''} has no chapter yet. Write the scene where it happens, and what it costs the characters there.`,
      entityIds: [e.id, ...e.characterIds],
    }));
}

function timelineGaps(x: Indexed): SuggestionDraft[] {
  const withEvent = new Set(x.m.events.map((e) => e.chapterId).filter((id): id is string => id !== null));
  const out: SuggestionDraft[] = [];
  for (const book of orderedBooks(x.m)) {
    const chapters = x.chapters.filter((c) => c.bookId === book.id);
    let run: typeof chapters = [];
    const flush = () => {
      if (run.length >= TIMELINE_GAP_CHAPTERS) {
        out.push({
          type: 'plotIdea',
          content: `The timeline of ${book.title} has a gap: ${run.length} chapters from "${run[0]!.title}" to "${run.at(-1)!.title}" have no event. What happens there that changes the story?`,
          entityIds: [],
        });
      }
      run = [];
    };
    for (const c of chapters) {
      if (withEvent.has(c.id)) flush();
      else run.push(c);
    }
    flush();
  }
  return out;
}

/** A deceased character who still appears in a book after their last listed appearance. */
function deceasedWhoReturn(x: Indexed): SuggestionDraft[] {
  const out: SuggestionDraft[] = [];
  for (const c of x.m.characters) {
    if (c.status !== 'deceased' || c.bookAppearances.length === 0) continue;
    const last = Math.max(...c.bookAppearances);
    const chapter = x.chapters.find((ch) => ch.book > last && names(x, ch, c));
    const event = x.m.events.find((e) => e.bookId !== null && (x.numbers.get(e.bookId) ?? 0) > last && e.characterIds.includes(c.id));
    const where = chapter ? `the chapter "${chapter.title}"` : event ? `the event "${event.title}"` : null;
    if (!where) continue;
    const bookId = chapter?.bookId ?? event!.bookId!;
    out.push({
      type: 'consistency',
      content: `${c.name} is marked deceased (last in book ${last}) but appears in ${where} of ${x.bookTitle.get(bookId) ?? `book ${x.numbers.get(bookId)}`}. A flashback, a ghost, or a continuity slip?`,
      entityIds: [c.id, ...(event ? [event.id] : [])],
    });
  }
  return out;
}

function insights(x: Indexed): SuggestionDraft[] {
  if (x.chapters.length === 0 || x.m.characters.length === 0) return [];
  const counts = x.m.characters.map((c) => ({ c, n: x.chapters.filter((ch) => names(x, ch, c)).length }));
  counts.sort((a, b) => b.n - a.n || a.c.name.localeCompare(b.c.name));
  const top = counts[0]!;
  const least = counts.at(-1)!;
  const out: SuggestionDraft[] = [];
  if (top.n > 0) {
    out.push({
      type: 'insight',
      content: `${top.c.name} appears in ${top.n} of ${x.chapters.length} chapters, more than anyone else${least.c.id !== top.c.id ? `; ${least.c.name} appears in ${least.n}` : ''}. Is that the balance you want?`,
      entityIds: least.c.id !== top.c.id ? [top.c.id, least.c.id] : [top.c.id],
    });
  }
  return out;
}

const RULES: Record<AiSuggestionType, ReadonlyArray<(x: Indexed) => SuggestionDraft[]>> = {
  plotIdea: [eventsWithoutChapter, timelineGaps],
  characterDevelopment: [absentMainCharacters],
  dialogue: [relationshipsWithoutScene],
  worldBuilding: [unusedLocations],
  conflict: [enemiesWhoNeverMeet],
  insight: [insights],
  consistency: [deceasedWhoReturn],
};

/** Main characters first, then by name: the order fall-back prompts take characters in. */
function fallbackCast(m: SeriesMaterial): MaterialCharacter[] {
  return [...m.characters].sort((a, b) => Number(isMainCharacter(b)) - Number(isMainCharacter(a)) || a.name.localeCompare(b.name));
}

/** What the fall-back prompts draw on, made once per kept material. */
interface FallbackSource {
  m: SeriesMaterial;
  cast: readonly MaterialCharacter[];
  lastBook: SeriesMaterial['books'][number] | undefined;
  /** Per type, the set of earlier suggestions in which every prompt of the type was found (see pickSuggestion). */
  usedUp: Map<AiSuggestionType, ReadonlySet<string>>;
}

/** Per (kept) spoiler-safe material: sorting the cast by name per request cost more than the rest of the pick. */
const fallbackSources = new WeakMap<SeriesMaterial, FallbackSource>();

/**
 * How many turns give different prompts of `type` (the entries it rotates through): past that
 * they repeat, so looking further for a new one is wasted (it was the request's largest cost once
 * the rules' findings were used up, bench/companion.ts).
 */
function fallbackCycle({ m, cast }: FallbackSource, type: AiSuggestionType): number {
  switch (type) {
    case 'worldBuilding':
      return Math.max(1, m.locations.length);
    case 'conflict':
      return Math.max(1, cast.length, m.locations.length);
    case 'insight':
    case 'consistency':
      return 1;
    default:
      return Math.max(1, cast.length);
  }
}

/** When no rule finds anything of the type: a prompt about a real entry, rotating with `turn`. */
function fallback({ m, cast: chars, lastBook: book }: FallbackSource, type: AiSuggestionType, turn: number): SuggestionDraft {
  const x = { m, chapters: m.chapters };
  const c = chars.length ? chars[turn % chars.length]! : undefined;
  const other = chars.length > 1 ? chars[(turn + 1) % chars.length]! : undefined;
  const places = x.m.locations;
  const l = places.length ? places[turn % places.length]! : undefined;
  const ids = (...e: Array<{ id: string } | undefined>) => e.filter((v): v is { id: string } => v !== undefined).map((v) => v.id);
  switch (type) {
    case 'plotIdea':
      return c
        ? { type, content: `What does ${c.name} want most${book ? ` in ${book.title}` : ''}, and what is the worst thing that could stand in the way? Let that obstacle arrive one chapter earlier than planned.`, entityIds: ids(c) }
        : { type, content: `Add the characters of ${x.m.seriesTitle} to get plot ideas drawn from them. Meanwhile: what does your protagonist want, and who stops them?`, entityIds: [] };
    case 'characterDevelopment':
      return c
        ? { type, content: `Give ${c.name} a choice between two things they value. Which do they pick, and what does it reveal that the reader has not seen yet?`, entityIds: ids(c) }
        : { type, content: `Create a character for ${x.m.seriesTitle}: their goal, their flaw, and the lie they believe.`, entityIds: [] };
    case 'dialogue':
      return c && other
        ? { type, content: `Write an exchange where ${c.name} and ${other.name} talk about one thing while meaning another.`, entityIds: ids(c, other) }
        : { type, content: 'Write a conversation in which nobody says what they mean, and the reader still understands.', entityIds: ids(c) };
    case 'worldBuilding':
      return l
        ? { type, content: `What does ${l.name} smell and sound like at dawn? Add one custom or rule of ${l.name} that a character must break.`, entityIds: ids(l) }
        : { type, content: `Add a location to ${x.m.seriesTitle}: a place with a rule that your characters must break.`, entityIds: [] };
    case 'conflict':
      return c
        ? { type, content: `Who benefits if ${c.name} fails? Give that person a reason the reader can sympathise with${l ? `, and a foothold in ${l.name}` : ''}.`, entityIds: ids(c, l) }
        : { type, content: 'Give your antagonist a reason the reader can sympathise with.', entityIds: [] };
    case 'insight':
      return { type, content: `${x.m.seriesTitle} has ${x.m.books.length} ${x.m.books.length === 1 ? 'book' : 'books'}, ${x.chapters.length} ${x.chapters.length === 1 ? 'chapter' : 'chapters'}, ${x.m.characters.length} ${x.m.characters.length === 1 ? 'character' : 'characters'} and ${x.m.events.length} timeline ${x.m.events.length === 1 ? 'event' : 'events'}.`, entityIds: [] };
    case 'consistency':
      return { type, content: `No continuity problems found in ${x.m.seriesTitle}: no deceased character appears after their last book.`, entityIds: [] };
  }
}

export interface SuggestOptions {
  /** Omitted: the first type (in the spec's order) that a rule has something new for. */
  type?: AiSuggestionType | undefined;
  /** Spoiler-safe up to this book. */
  bookId?: string | null | undefined;
  /** Contents already suggested: not repeated while anything new remains. */
  previous?: ReadonlySet<string> | readonly string[];
}

export type SeriesFindings = Record<AiSuggestionType, SuggestionDraft[]>;

/**
 * Every rule's findings for the series (spoiler-safe up to `bookId`), by type, in rule order, and
 * the spoiler-safe material the fall-back prompts draw on. Depends only on the series: the server
 * keeps it until the series changes.
 */
export function seriesFindings(material: SeriesMaterial, bookId?: string | null): SeriesFindings & { safe: SeriesMaterial } {
  const safe = spoilerSafe(material, bookId);
  const x = index(safe);
  const byType = Object.fromEntries(AI_SUGGESTION_TYPES.map((t) => [t, RULES[t].flatMap((rule) => rule(x))])) as SeriesFindings;
  return { ...byType, safe };
}

/** One suggestion from the findings, new where possible; a prompt naming a real entry when no rule has anything new. */
export function pickSuggestion(findings: SeriesFindings & { safe: SeriesMaterial }, options: Omit<SuggestOptions, 'bookId'> = {}): SuggestionDraft {
  const previous: ReadonlySet<string> = options.previous instanceof Set ? options.previous : new Set(options.previous ?? []);
  const types = options.type ? [options.type] : AI_SUGGESTION_TYPES;
  for (const type of types) {
    const fresh = firstFresh(findings[type], previous);
    if (fresh) return fresh;
  }
  const m = findings.safe;
  let source = fallbackSources.get(m);
  if (!source) fallbackSources.set(m, (source = { m, cast: fallbackCast(m), lastBook: orderedBooks(m).at(-1), usedUp: new Map() }));
  const type = options.type ?? AI_SUGGESTION_TYPES[previous.size % AI_SUGGESTION_TYPES.length]!;
  if (source.usedUp.get(type) !== previous) {
    for (let turn = previous.size; turn < previous.size + fallbackCycle(source, type); turn++) {
      const draft = fallback(source, type, turn);
      if (!previous.has(draft.content)) return draft;
    }
    // Every prompt of the type has been suggested: it stays so while `previous` only grows.
    source.usedUp.set(type, previous);
  }
  return fallback(source, type, previous.size);
}

/**
 * Per findings list, how far a set of earlier suggestions has used it up. The server keeps one
 * set per series and only ever adds to it (a changed series gets a new one), so what was used
 * stays used: each pick starts where the last one stopped instead of checking every finding
 * again (thousands of suggestions made every pick check the whole list, bench/companion.ts).
 */
const usedFindings = new WeakMap<readonly SuggestionDraft[], { previous: ReadonlySet<string>; from: number }>();

function firstFresh(list: readonly SuggestionDraft[], previous: ReadonlySet<string>): SuggestionDraft | undefined {
  const known = usedFindings.get(list);
  let i = known?.previous === previous ? known.from : 0;
  while (i < list.length && previous.has(list[i]!.content)) i++;
  usedFindings.set(list, { previous, from: i });
  return list[i];
}

/** One suggestion, new where possible, naming the series' own entities. */
export function suggest(material: SeriesMaterial, options: SuggestOptions = {}): SuggestionDraft {
  return pickSuggestion(seriesFindings(material, options.bookId), options);
}

/**
 * The dashboard panel's "two built-in sample suggestions" shown when the fetch fails (000 §2, §9;
 * their wording is not in the spec).
 */
export const SAMPLE_SUGGESTIONS: readonly SuggestionDraft[] = [
  { type: 'insight', content: 'Reread your last chapter aloud: wherever you stumble, a sentence is asking to be split.', entityIds: [] },
  { type: 'consistency', content: 'Check that every character who appears in this chapter is alive, present and in the right place on your timeline.', entityIds: [] },
];
