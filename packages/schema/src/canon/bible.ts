/**
 * The series bible's "Canon over time" section (docs/decisions/0017-canon-changes.md): for each
 * character, place and relationship with canon changes, the changes in narrative order, each at
 * its book and chapter; changes whose chapter is gone are listed last as unanchored, never dropped.
 */
import type { Book, Chapter, Character, CharacterRelationship, Location } from '../entities.ts';
import { type ManuscriptBook, type ManuscriptChapter, plainParagraph } from '../manuscript.ts';
import { canonTimeline } from './resolve.ts';
import { storyOrder } from './story-order.ts';
import { CANON_FIELD_LABELS, type CanonChange } from './wire.ts';

const CHOICE_FIELDS = new Set(['status', 'state', 'relationshipType']);
const label = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

export interface CanonBibleInput {
  books: readonly Book[];
  chapters: readonly Chapter[];
  characters: readonly Character[];
  relationships: readonly CharacterRelationship[];
  locations: readonly Location[];
  canonChanges: readonly CanonChange[];
}

export function canonBibleSection(input: CanonBibleInput): ManuscriptBook {
  const order = storyOrder(input.books, input.chapters);
  const timeline = canonTimeline(order, input.canonChanges);
  const bookTitles = new Map(input.books.map((b) => [b.id, b.title]));
  const chapterTitles = new Map(input.chapters.map((c) => [c.id, c.title]));
  const characterNames = new Map(input.characters.filter((c) => c.deletedAt === null).map((c) => [c.id, c.name]));
  const placeNames = new Map(input.locations.filter((l) => l.deletedAt === null).map((l) => [l.id, l.name]));
  const names = new Map<string, string>([...characterNames, ...placeNames]);
  for (const r of input.relationships) {
    const [a, b] = [characterNames.get(r.sourceCharacterId), characterNames.get(r.targetCharacterId)];
    if (r.deletedAt === null && a && b) names.set(r.id, `${a} and ${b}`);
  }
  const valueOf = (change: CanonChange) => {
    if (change.field === 'whereabouts') {
      return [change.locationId ? (placeNames.get(change.locationId) ?? '') : '', change.value].filter((part) => part.trim() !== '').join(', ') || 'Unknown';
    }
    return CHOICE_FIELDS.has(change.field) ? label(change.value) : change.value;
  };
  const line = (change: CanonChange, where: string) => {
    const extra = [change.date, change.note].filter((part) => part.trim() !== '').join('; ');
    return `${where}: ${CANON_FIELD_LABELS[change.field] ?? change.field}: ${valueOf(change)}${extra ? ` (${extra})` : ''}`;
  };

  const lines = new Map<string, string[]>();
  const add = (entityId: string, text: string) => lines.set(entityId, [...(lines.get(entityId) ?? []), text]);
  for (const placed of timeline.anchored) {
    add(placed.change.entityId, line(placed.change, `${bookTitles.get(placed.bookId) ?? ''}, ${chapterTitles.get(placed.change.chapterId!) ?? ''}`));
  }
  for (const change of timeline.unanchored) add(change.entityId, line(change, 'Unanchored (its chapter is gone)'));

  const chapters: ManuscriptChapter[] = [...lines]
    .filter(([entityId]) => names.has(entityId))
    .sort(([a], [b]) => names.get(a)!.localeCompare(names.get(b)!))
    .map(([entityId, texts]) => ({ id: `canon-${entityId}`, title: names.get(entityId)!, blocks: texts.map((text, i) => plainParagraph(text, i === 0)), wordCount: 0 }));
  return { id: 'canon', title: 'Canon over time', chapters };
}
