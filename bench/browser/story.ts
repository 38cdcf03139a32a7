/**
 * The series the sync benches sync: deterministic prose-like rows (bench/lib/prose.ts) for
 * chapters, characters, locations and timeline events, in the exact shapes the server stores
 * (written through its repository code, bench/browser/repository.ts).
 */
import {
  type EntityKind,
  CHARACTER_ROLES,
  CHARACTER_STATUSES,
  EVENT_IMPORTANCE,
  EVENT_TYPES,
  LOCATION_IMPORTANCE,
  LOCATION_TYPES,
  newId,
} from '@chronicler/schema';
import { chapterText, proseParagraphs, seededRandom } from '../lib/prose.ts';
import type { ApiClient } from '../lib/api.ts';
import { type RowWrite, openDatabase, seedInserts, upgradePlan } from './repository.ts';

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A paragraph or two of `min`–`max` words. */
export function prose(random: Random, min: number, max: number): string {
  return proseParagraphs(random, min + Math.floor(random() * (max - min + 1))).join('\n\n');
}

const FIRST = ['Mira', 'Talon', 'Eshe', 'Corvin', 'Ilse', 'Bram', 'Oona', 'Kestrel', 'Vance', 'Liora', 'Hale', 'Sabine', 'Orrin', 'Tamsin'];
const LAST = ['Ashdown', 'Vell', 'Marrow', 'Quill', 'Thorne', 'Galloway', 'Reyes', 'Okafor', 'Lindqvist', 'Brand'];
const PLACE = ['Harbour', 'Keep', 'Hollow', 'Crossing', 'Spire', 'Market', 'Fen', 'Gate', 'Reach', 'Vale'];
const PLACE_ADJ = ['Old', 'Silver', 'Drowned', 'North', 'Lantern', 'Ash', 'High', 'Salt', 'Broken', 'Amber'];
const COLOURS = ['#6366f1', '#ef4444', '#10b981', '#f59e0b', '#0ea5e9', '#a855f7'];

export function characterValues(random: Random, seriesId: string, n: number, id = newId()): Record<string, unknown> & { id: string } {
  return {
    id,
    seriesId,
    name: `${pick(random, FIRST)} ${pick(random, LAST)} ${n}`,
    role: pick(random, CHARACTER_ROLES),
    age: String(16 + Math.floor(random() * 60)),
    occupation: pick(random, ['smuggler', 'archivist', 'captain', 'healer', 'cartographer', 'soldier', 'innkeeper']),
    status: pick(random, CHARACTER_STATUSES),
    description: prose(random, 30, 90),
    appearance: prose(random, 15, 40),
    personality: prose(random, 15, 40),
    goals: prose(random, 10, 30),
    backstory: prose(random, 60, 160),
    bookAppearances: [1, 2, 3].filter(() => random() < 0.6),
    isProtagonist: random() < 0.05,
    avatar: null,
    avatarUrl: null,
  };
}

export function locationValues(random: Random, seriesId: string, n: number, id = newId()): Record<string, unknown> & { id: string } {
  return {
    id,
    seriesId,
    name: `${pick(random, PLACE_ADJ)} ${pick(random, PLACE)} ${n}`,
    locationType: pick(random, LOCATION_TYPES),
    description: prose(random, 40, 140),
    importance: pick(random, LOCATION_IMPORTANCE),
    bookAppearances: [1, 2, 3].filter(() => random() < 0.5),
    image: null,
  };
}

export interface EventRefs {
  bookId: string | null;
  chapterId: string | null;
  characterIds: string[];
  locationId: string | null;
}

export function eventValues(random: Random, seriesId: string, n: number, refs: EventRefs, id = newId()): Record<string, unknown> & { id: string } {
  return {
    id,
    seriesId,
    title: `Event ${n}: ${prose(random, 3, 7).replace(/[.?!”“]/g, '')}`.slice(0, 120),
    description: prose(random, 20, 80),
    eventType: pick(random, EVENT_TYPES),
    date: `Year ${300 + Math.floor(n / 12)}, month ${(n % 12) + 1}`,
    bookId: refs.bookId,
    chapterId: refs.chapterId,
    characterIds: refs.characterIds,
    locationId: refs.locationId,
    importance: pick(random, EVENT_IMPORTANCE),
    color: pick(random, COLOURS),
    position: n,
    isPlotPoint: random() < 0.2,
  };
}

export interface SeededChapter {
  id: string;
  bookId: string;
  content: string;
}

export interface SeriesRows {
  writes: RowWrite[];
  chapters: SeededChapter[];
  characterIds: string[];
  locationIds: string[];
  eventIds: string[];
  words: number;
}

export interface SeriesSize {
  chapters: number;
  words: number;
  characters: number;
  locations: number;
  events: number;
}

/**
 * Rows for a series whose books already exist: chapters spread over the books in order (each of
 * exactly `words` words), then characters, locations and timeline events referring to them.
 */
export function seriesRows(seriesId: string, bookIds: readonly string[], size: SeriesSize, seed = 1): SeriesRows {
  const random = seededRandom(seed);
  const writes: RowWrite[] = [];
  const chapters: SeededChapter[] = [];
  const perBook = Math.ceil(size.chapters / bookIds.length);
  for (let n = 1; n <= size.chapters; n++) {
    const bookId = bookIds[Math.floor((n - 1) / perBook)]!;
    const content = chapterText(seed * 100_000 + n, size.words);
    const id = newId();
    chapters.push({ id, bookId, content });
    writes.push({
      op: 'insert',
      kind: 'chapters',
      values: { id, seriesId, bookId, title: `Chapter ${n}`, content, position: ((n - 1) % perBook) + 1, wordCount: size.words, status: 'in_progress' },
    });
  }
  const characterIds: string[] = [];
  for (let n = 1; n <= size.characters; n++) {
    const values = characterValues(random, seriesId, n);
    characterIds.push(values.id);
    writes.push({ op: 'insert', kind: 'characters', values });
  }
  const locationIds: string[] = [];
  for (let n = 1; n <= size.locations; n++) {
    const values = locationValues(random, seriesId, n);
    locationIds.push(values.id);
    writes.push({ op: 'insert', kind: 'locations', values });
  }
  const eventIds: string[] = [];
  for (let n = 1; n <= size.events; n++) {
    const values = eventValues(random, seriesId, n, randomRefs(random, chapters, characterIds, locationIds));
    eventIds.push(values.id);
    writes.push({ op: 'insert', kind: 'timelineEvents', values });
  }
  return { writes, chapters, characterIds, locationIds, eventIds, words: size.chapters * size.words };
}

/** An event's references: usually a chapter (and its book), some characters, often a location. */
export function randomRefs(random: Random, chapters: readonly { id: string; bookId: string }[], characterIds: readonly string[], locationIds: readonly string[]): EventRefs {
  const chapter = chapters.length > 0 && random() < 0.8 ? pick(random, chapters) : null;
  const characters = new Set<string>();
  const wanted = characterIds.length > 0 ? 1 + Math.floor(random() * 3) : 0;
  for (let i = 0; i < wanted; i++) characters.add(pick(random, characterIds));
  return {
    bookId: chapter?.bookId ?? null,
    chapterId: chapter?.id ?? null,
    characterIds: [...characters],
    locationId: locationIds.length > 0 && random() < 0.7 ? pick(random, locationIds) : null,
  };
}

const READ_PATHS: Partial<Record<EntityKind, string>> = {
  chapters: '/api/chapters/',
  characters: '/api/characters/',
  locations: '/api/locations/',
  timelineEvents: '/api/timeline-events/',
};

/**
 * Seeds `writes` into the running server's database file (a second connection: WAL lets the
 * server keep its own) and checks that the last row of each kind reads back through the API
 * exactly as the server would have answered its create.
 */
export async function seedThroughRepository(
  databaseFile: string,
  client: ApiClient,
  userId: string,
  writes: readonly RowWrite[],
): Promise<void> {
  const database = await openDatabase(databaseFile);
  try {
    await upgradePlan(database.db, userId);
    const answers = seedInserts(database, userId, writes);
    const lastOfKind = new Map<EntityKind, Record<string, unknown>>();
    writes.forEach((write, i) => lastOfKind.set(write.kind, answers[i]!));
    for (const [kind, expected] of lastOfKind) {
      const read = READ_PATHS[kind];
      if (!read) continue;
      const actual = await client.json<Record<string, unknown>>('GET', `${read}${String(expected.id)}`);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        throw new Error(`a seeded ${kind} row reads back differently from the server's own answer:\n${JSON.stringify(actual).slice(0, 400)}\n${JSON.stringify(expected).slice(0, 400)}`);
      }
    }
  } finally {
    await database.close();
  }
}
