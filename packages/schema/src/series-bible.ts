/**
 * The series bible (characters, relationships, places inside places, the timeline, canon over time, and each
 * book's chapter synopses and notes) as a Manuscript: one "book" per section and one "chapter" per entry, so every
 * manuscript renderer (PDF, Markdown) writes it. Block text is marked text, as a chapter's
 * (docs/decisions/0009-chapter-markup.md): plain fields are escaped, synopses and notes kept as written.
 */
import type { Book, Chapter, Character, CharacterRelationship, Location, Series, TimelineEvent } from './entities.ts';
import {
  type Manuscript,
  type ManuscriptBlock,
  type ManuscriptBook,
  type ManuscriptChapter,
  markedParagraph,
  plainParagraph,
} from './manuscript.ts';
import { escapeText } from './markup/serialize.ts';
import { byPosition } from './positions.ts';
import { canonBibleSection } from './canon/bible.ts';
import type { CanonChange } from './canon/wire.ts';
import { WORLD_CATEGORIES, WORLD_CATEGORY_FIELDS, WORLD_CATEGORY_NAMES, WORLD_FIELD_LABELS, type WorldEntry } from './world/wire.ts';
import { buildPlaceTree, placeAncestors, placesInTreeOrder } from './places.ts';

export interface BibleInput {
  series: Pick<Series, 'title' | 'description'>;
  author: string;
  characters: readonly Character[];
  relationships: readonly CharacterRelationship[];
  locations: readonly Location[];
  events: readonly TimelineEvent[];
  /** The books and chapters whose synopses and notes the bible lists (none: no outline sections). */
  books?: readonly Book[];
  chapters?: readonly Chapter[];
  /** Canon changes (docs/decisions/0017-canon-changes.md): a "Canon over time" section when there are any. */
  canonChanges?: readonly CanonChange[];
  /** World entries (docs/decisions/0020-world-entries.md): one section per category that has any. */
  worldEntries?: readonly WorldEntry[];
}

const label = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** A field's value: plain text (escaped into markup), or marked text as the author wrote it. */
type FieldValue = string | { marked: string };

function entry(id: string, title: string, fields: ReadonlyArray<[string, FieldValue]>): ManuscriptChapter {
  const blocks: ManuscriptBlock[] = [];
  for (const [name, value] of fields) {
    const marked = typeof value === 'string' ? escapeText(value) : value.marked;
    // Every line an author typed is kept; multi-line fields become several paragraphs.
    const lines = marked.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== '');
    lines.forEach((line, i) => blocks.push(markedParagraph(i === 0 && name ? `${escapeText(`${name}: `)}${line}` : line, blocks.length === 0)));
  }
  return { id, title, blocks, wordCount: 0 };
}

/** Each book's chapters that have a synopsis or notes, in reading order: one section per book. */
function outlineSections(books: readonly Book[], chapters: readonly Chapter[]): ManuscriptBook[] {
  return books
    .filter((b) => b.deletedAt === null)
    .sort(byPosition)
    .map((book) => ({
      id: `outline-${book.id}`,
      title: `Outline: ${book.title}`,
      chapters: chapters
        .filter((c) => c.bookId === book.id && c.deletedAt === null && ((c.synopsis ?? '').trim() !== '' || (c.notes ?? '').trim() !== ''))
        .sort(byPosition)
        .map((c) => entry(c.id, c.title, [['Synopsis', { marked: c.synopsis ?? '' }], ['Notes', { marked: c.notes ?? '' }]])),
    }));
}

const books = (nums: readonly number[]) => (nums.length ? nums.map((n) => `Book ${n}`).join(', ') : '');

/**
 * One section per world category (Cultures, Magic Systems …): each entry's summary, its category's
 * fields, tags, books and links by name; a link whose target is gone is left out.
 */
function worldSections(entries: readonly WorldEntry[], names: ReadonlyMap<string, string>): ManuscriptBook[] {
  const live = entries.filter((e) => e.deletedAt === null).sort((a, b) => a.name.localeCompare(b.name));
  const entryNames = new Map(live.map((e) => [e.id, e.name]));
  const named = (ids: readonly string[]) => ids.flatMap((id) => names.get(id) ?? entryNames.get(id) ?? []).join(', ');
  return WORLD_CATEGORIES.map((category) => ({
    id: `world-${category}`,
    title: WORLD_CATEGORY_NAMES[category].tab,
    chapters: live
      .filter((e) => e.category === category)
      .map((e) => {
        const own = Object.keys(WORLD_CATEGORY_FIELDS[category]).map((field): [string, FieldValue] => {
          const value = (e as unknown as Record<string, unknown>)[field];
          const shown =
            field === 'leaderId' ? (e.leaderId ? (names.get(e.leaderId) ?? '') : '')
            : Array.isArray(value) ? named(value as string[])
            : field === 'danger' ? (value === 'unknown' ? '' : label(String(value)))
            // One-line fields are plain text; the others are marked text, as the description.
            : field === 'language' || field === 'era' ? String(value ?? '')
            : { marked: String(value ?? '') };
          return [WORLD_FIELD_LABELS[field]!, shown];
        });
        return entry(e.id, e.name, [
          ['Summary', e.summary], ...own, ['Description', { marked: e.description }],
          ['Tags', e.tags.join(', ')], ['Appears in', books(e.bookAppearances)],
          ['Characters', named(e.characterIds)], ['Places', named(e.locationIds)], ['Related', named(e.entryIds)],
        ]);
      }),
  }));
}


/** Indentation of a nested place in the outline: non-breaking, so no renderer trims or collapses it. */
const OUTLINE_INDENT = '\u00a0'.repeat(4);

/**
 * The places, each followed by the places inside it (docs/decisions/0021-places-inside-places.md):
 * an entry per place that says what it is inside, and — when any place is inside another — an
 * indented outline of the whole tree first, since a manuscript has one level of entries.
 */
function placesSection(locations: readonly Location[]): ManuscriptBook {
  const tree = buildPlaceTree(locations, (a, b) => a.name.localeCompare(b.name));
  const byId = new Map(locations.map((l) => [l.id, l]));
  const ordered = placesInTreeOrder(tree);
  const outline: ManuscriptChapter[] = ordered.some((n) => n.depth > 0)
    ? [
        {
          id: 'places-outline',
          title: 'Places at a glance',
          blocks: ordered.map(({ place, depth }, i) => plainParagraph(`${OUTLINE_INDENT.repeat(depth)}${depth > 0 ? '– ' : ''}${place.name}`, i === 0)),
          wordCount: 0,
        },
      ]
    : [];
  return {
    id: 'places',
    title: 'Places',
    chapters: [
      ...outline,
      ...ordered.map(({ place: l }) =>
        entry(l.id, l.name, [
          ['Inside', placeAncestors(tree, byId, l.id).map((a) => a.name).join(' › ')],
          ['Type', label(l.locationType)], ['Importance', label(l.importance)], ['Appears in', books(l.bookAppearances)], ['Description', l.description],
        ]),
      ),
    ],
  };
}

export function buildSeriesBible(input: BibleInput): Manuscript {
  const live = <T extends { deletedAt: string | null }>(rows: readonly T[]) => rows.filter((r) => r.deletedAt === null);
  const characters = live(input.characters).sort((a, b) => a.name.localeCompare(b.name));
  const names = new Map(characters.map((c) => [c.id, c.name]));
  const places = live(input.locations).sort((a, b) => a.name.localeCompare(b.name));
  const placeNames = new Map(places.map((l) => [l.id, l.name]));
  const sections: ManuscriptBook[] = [
    {
      id: 'characters',
      title: 'Characters',
      chapters: characters.map((c) =>
        entry(c.id, c.name, [
          ['Role', label(c.role)], ['Status', label(c.status)], ['Age', c.age], ['Occupation', c.occupation],
          ['Appears in', books(c.bookAppearances)], ['Description', c.description], ['Appearance', c.appearance],
          ['Personality', c.personality], ['Goals', c.goals], ['Backstory', c.backstory],
        ]),
      ),
    },
    {
      id: 'relationships',
      title: 'Relationships',
      chapters: live(input.relationships)
        .filter((r) => names.has(r.sourceCharacterId) && names.has(r.targetCharacterId))
        .map((r) =>
          entry(r.id, `${names.get(r.sourceCharacterId)} and ${names.get(r.targetCharacterId)}`, [
            ['Type', label(r.relationshipType)], ['Description', r.description],
          ]),
        ),
    },
    placesSection(places),
    {
      id: 'timeline',
      title: 'Timeline',
      chapters: live(input.events).sort(byPosition).map((e) =>
        entry(e.id, e.title, [
          ['Date', e.date], ['Type', label(e.eventType)], ['Importance', label(e.importance)],
          ['Place', e.locationId ? (placeNames.get(e.locationId) ?? '') : ''],
          ['Characters', e.characterIds.flatMap((id) => names.get(id) ?? []).join(', ')],
          ['Description', e.description],
        ]),
      ),
    },
    canonBibleSection({
      books: input.books ?? [],
      chapters: input.chapters ?? [],
      characters: input.characters,
      relationships: input.relationships,
      locations: input.locations,
      canonChanges: input.canonChanges ?? [],
    }),
    ...worldSections(input.worldEntries ?? [], new Map([...names, ...placeNames])),
    ...outlineSections(input.books ?? [], input.chapters ?? []),
  ];
  return {
    title: `${input.series.title} — Series Bible`,
    author: input.author,
    description: input.series.description || `The series bible of ${input.series.title}`,
    books: sections.filter((s) => s.chapters.length > 0),
    wordCount: 0,
  };
}
