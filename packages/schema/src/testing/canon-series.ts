/**
 * A small series built in memory for the canon tests (the resolver's, the continuity checks', the
 * bench's): books of chapters, characters, locations, relationships and canon changes as the server
 * would store them, with increasing creation stamps so recorded order is the order of the calls.
 */
import { type Book, type Chapter, type Character, type CharacterRelationship, DEFAULT_EVENT_COLOR, type Location, type TimelineEvent } from '../entities.ts';
import { newId } from '../ids.ts';
import type { CanonChange, CanonEntityKind } from '../canon/wire.ts';

export interface CanonSeriesBuilder {
  readonly seriesId: string;
  readonly books: Book[];
  readonly chapters: Chapter[];
  readonly characters: Character[];
  readonly locations: Location[];
  readonly relationships: CharacterRelationship[];
  readonly events: TimelineEvent[];
  readonly changes: CanonChange[];
  /** A book at the end of the series. */
  book(title: string): Book;
  /** A chapter at the end of `book`. */
  chapter(book: Book, title: string, content?: string, extra?: Partial<Chapter>): Chapter;
  character(name: string, extra?: Partial<Character>): Character;
  location(name: string, extra?: Partial<Location>): Location;
  relationship(source: Character, target: Character, extra?: Partial<CharacterRelationship>): CharacterRelationship;
  /** A timeline event at `chapter` (and its book) with `characters`. */
  event(title: string, chapter: Chapter | null, characters: readonly Character[], extra?: Partial<TimelineEvent>): TimelineEvent;
  /** A change of `field` of `entity` at `chapter`. */
  change(
    entity: { id: string },
    entityKind: CanonEntityKind,
    field: string,
    value: string,
    chapter: Chapter | null,
    extra?: Partial<CanonChange>,
  ): CanonChange;
}

export function canonSeries(): CanonSeriesBuilder {
  const seriesId = newId();
  let clock = Date.UTC(2026, 0, 1);
  const stamp = () => new Date((clock += 1000)).toISOString();
  const synced = () => {
    const at = stamp();
    return { id: newId(), rev: 1, createdAt: at, updatedAt: at, deletedAt: null };
  };
  const built: CanonSeriesBuilder = {
    seriesId,
    books: [],
    chapters: [],
    characters: [],
    locations: [],
    relationships: [],
    events: [],
    changes: [],
    book(title) {
      const book: Book = { ...synced(), seriesId, title, description: '', position: built.books.length + 1, status: 'in_progress', wordCount: 0, trashedAt: null };
      built.books.push(book);
      return book;
    },
    chapter(book, title, content = '', extra = {}) {
      const position = built.chapters.filter((c) => c.bookId === book.id).length + 1;
      const chapter: Chapter = {
        ...synced(), seriesId, bookId: book.id, title, content, position, wordCount: 0, status: 'draft',
        synopsis: '', notes: '', trashedAt: null, flashback: false, ...extra,
      };
      built.chapters.push(chapter);
      return chapter;
    },
    character(name, extra = {}) {
      const character: Character = {
        ...synced(), seriesId, name, role: 'supporting', age: '', occupation: '', status: 'alive', description: '', appearance: '',
        personality: '', goals: '', backstory: '', bookAppearances: [], isProtagonist: false, avatar: null, avatarUrl: null,
        aliases: [], alwaysInclude: false, ...extra,
      };
      built.characters.push(character);
      return character;
    },
    location(name, extra = {}) {
      const location: Location = {
        ...synced(), seriesId, name, locationType: 'city', description: '', importance: 'secondary', bookAppearances: [], image: null,
        alwaysInclude: false, parentId: null, ...extra,
      };
      built.locations.push(location);
      return location;
    },
    relationship(source, target, extra = {}) {
      const relationship: CharacterRelationship = {
        ...synced(), seriesId, sourceCharacterId: source.id, targetCharacterId: target.id, relationshipType: 'ally', description: '', ...extra,
      };
      built.relationships.push(relationship);
      return relationship;
    },
    event(title, chapter, characters, extra = {}) {
      const event: TimelineEvent = {
        ...synced(), seriesId, title, description: '', eventType: 'plot', date: '', bookId: chapter?.bookId ?? null, chapterId: chapter?.id ?? null,
        characterIds: characters.map((c) => c.id), locationId: null, importance: 'medium', color: DEFAULT_EVENT_COLOR,
        position: built.events.length + 1, isPlotPoint: false, flashback: false, ...extra,
      };
      built.events.push(event);
      return event;
    },
    change(entity, entityKind, field, value, chapter, extra = {}) {
      const change: CanonChange = {
        ...synced(), seriesId, entityKind, entityId: entity.id, field, value, locationId: null,
        bookId: chapter?.bookId ?? null, chapterId: chapter?.id ?? null, timelineEventId: null, date: '', note: '', ...extra,
      };
      built.changes.push(change);
      return change;
    },
  };
  return built;
}
