/**
 * The rows search reads, as documents: one per chapter, book, character, location and timeline
 * event, each with its fields (what the author typed, in full) and the group the index files each
 * field under. Deleted rows are no documents; conflict copies, drafts and revisions never become
 * documents (docs/decisions/0012-offline-search.md).
 */
import type { Book, Chapter, Character, Location, TimelineEvent } from '../entities.ts';

export const SEARCH_KINDS = ['chapter', 'book', 'character', 'location', 'event'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Where the index files a field: its name, its main text, the rest (weights differ). */
export type FieldGroup = 'title' | 'body' | 'more';
export const FIELD_GROUPS: readonly FieldGroup[] = ['title', 'body', 'more'];

export interface SearchField {
  /** The row's field (`content`, `aliases` …): what a hit opens. */
  readonly name: string;
  /** The field's name in words, for a snippet from it ("Synopsis"). */
  readonly label: string;
  readonly text: string;
  /** Marked text (chapter text, synopsis, notes: docs/decisions/0009-chapter-markup.md), searched as it reads. */
  readonly markup: boolean;
  readonly group: FieldGroup;
}

export interface SearchDocument {
  /** `${kind}:${rowId}`: one id space for the index. */
  readonly id: string;
  readonly kind: SearchKind;
  readonly rowId: string;
  readonly seriesId: string;
  /** The book a chapter (or a book) is in; for an event, its book if it names one. */
  readonly bookId: string | null;
  /** What the result is called (a chapter's title, a character's name). */
  readonly title: string;
  /** Where the row is in its list (chapters within a book, books within a series). */
  readonly position: number;
  readonly fields: readonly SearchField[];
  /** Changes whenever the row may have: a stored index whose stamp differs re-reads the row. */
  readonly stamp: string;
}

export function documentId(kind: SearchKind, rowId: string): string {
  return `${kind}:${rowId}`;
}

type Synced = { id: string; rev: number; updatedAt: string; deletedAt: string | null };
const stampOf = (row: Synced) => `${row.rev}|${row.updatedAt}`;

function field(name: string, label: string, text: string | undefined, group: FieldGroup, markup = false): SearchField | null {
  return text && text.trim() ? { name, label, text, markup, group } : null;
}

function doc(kind: SearchKind, row: Synced & { seriesId: string }, rest: Omit<SearchDocument, 'id' | 'kind' | 'rowId' | 'seriesId' | 'stamp' | 'fields'>, fields: (SearchField | null)[]): SearchDocument {
  return { id: documentId(kind, row.id), kind, rowId: row.id, seriesId: row.seriesId, stamp: stampOf(row), ...rest, fields: fields.filter((f): f is SearchField => f !== null) };
}

export function chapterDocument(chapter: Chapter): SearchDocument | null {
  if (chapter.deletedAt) return null;
  return doc('chapter', chapter, { bookId: chapter.bookId, title: chapter.title, position: chapter.position }, [
    field('title', 'Title', chapter.title, 'title'),
    field('content', 'Text', chapter.content, 'body', true),
    field('synopsis', 'Synopsis', chapter.synopsis, 'more', true),
    field('notes', 'Notes', chapter.notes, 'more', true),
  ]);
}

export function bookDocument(book: Book): SearchDocument | null {
  if (book.deletedAt) return null;
  return doc('book', book, { bookId: book.id, title: book.title, position: book.position }, [
    field('title', 'Title', book.title, 'title'),
    field('description', 'Description', book.description, 'body'),
  ]);
}

export function characterDocument(character: Character): SearchDocument | null {
  if (character.deletedAt) return null;
  return doc('character', character, { bookId: null, title: character.name, position: 0 }, [
    field('name', 'Name', character.name, 'title'),
    field('aliases', 'Also known as', (character.aliases ?? []).join('\n'), 'title'),
    field('description', 'Description', character.description, 'body'),
    field('appearance', 'Appearance', character.appearance, 'more'),
    field('personality', 'Personality', character.personality, 'more'),
    field('goals', 'Goals', character.goals, 'more'),
    field('backstory', 'Backstory', character.backstory, 'more'),
    field('occupation', 'Occupation', character.occupation, 'more'),
    field('age', 'Age', character.age, 'more'),
  ]);
}

export function locationDocument(location: Location): SearchDocument | null {
  if (location.deletedAt) return null;
  return doc('location', location, { bookId: null, title: location.name, position: 0 }, [
    field('name', 'Name', location.name, 'title'),
    field('description', 'Description', location.description, 'body'),
  ]);
}

export function eventDocument(event: TimelineEvent): SearchDocument | null {
  if (event.deletedAt) return null;
  return doc('event', event, { bookId: event.bookId, title: event.title, position: event.position }, [
    field('title', 'Title', event.title, 'title'),
    field('description', 'Description', event.description, 'body'),
    field('date', 'Date', event.date, 'more'),
  ]);
}

/** The Dexie table each kind is read from. */
export const SEARCH_TABLES = { chapter: 'chapters', book: 'books', character: 'characters', location: 'locations', event: 'timelineEvents' } as const satisfies Record<SearchKind, string>;

/** A row of a search table as a document (null when deleted). */
export function documentOfRow(kind: SearchKind, row: unknown): SearchDocument | null {
  switch (kind) {
    case 'chapter':
      return chapterDocument(row as Chapter);
    case 'book':
      return bookDocument(row as Book);
    case 'character':
      return characterDocument(row as Character);
    case 'location':
      return locationDocument(row as Location);
    case 'event':
      return eventDocument(row as TimelineEvent);
  }
}

export function kindOfTable(table: string): SearchKind | null {
  for (const kind of SEARCH_KINDS) if (SEARCH_TABLES[kind] === table) return kind;
  return null;
}
