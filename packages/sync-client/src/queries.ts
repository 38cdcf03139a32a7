/**
 * Reads for screens: plain Dexie queries, meant for `useLiveQuery(() => q.booksOfSeries(db, id), [db, id])`.
 * Rows deleted on the server but still holding unsent local edits (deletedAt set) are left out of
 * lists; `get*` helpers return them so an open editor can say so.
 */
import { Dexie } from 'dexie';
import type {
  CanonChange,
  WorldCategory,
  WorldEntry,
  Book,
  Chapter,
  ChapterConflict,
  Character,
  CharacterRelationship,
  Location,
  Series,
  TimelineEvent,
  UserRecord,
} from '@chronicler/schema';
import type { ChroniclerDb, DeadLetter, Draft } from './db.ts';

const live = <T extends { deletedAt: string | null }>(rows: T[]): T[] => rows.filter((r) => !r.deletedAt);
/** Live and not in the Trash (docs/decisions/0014-trash-and-restructure.md): what the author's lists show. */
const shown = <T extends { deletedAt: string | null; trashedAt?: string | null }>(rows: T[]): T[] => rows.filter((r) => !r.deletedAt && !r.trashedAt);
const byCreated = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
/** Books, chapters and events in their order: position, then creation. */
const inOrder = <T extends { position: number; createdAt: string; id: string }>(a: T, b: T) => a.position - b.position || byCreated(a, b);

/** All series the author can see, oldest first. */
export async function seriesList(db: ChroniclerDb): Promise<Series[]> {
  return live(await db.series.toArray()).sort(byCreated);
}

export async function getSeries(db: ChroniclerDb, id: string): Promise<Series | undefined> {
  return db.series.get(id);
}

/** Books of a series by position (then creation), but those in the Trash. */
export async function booksOfSeries(db: ChroniclerDb, seriesId: string): Promise<Book[]> {
  const rows = await db.books.where('[seriesId+position]').between([seriesId, Dexie.minKey], [seriesId, Dexie.maxKey]).toArray();
  return shown(rows).sort(inOrder);
}

export async function getBook(db: ChroniclerDb, id: string): Promise<Book | undefined> {
  return db.books.get(id);
}

/** The current book: the one whose position equals the series' currentBook (001 §7). */
export async function currentBook(db: ChroniclerDb, seriesId: string): Promise<Book | undefined> {
  const series = await db.series.get(seriesId);
  if (!series) return undefined;
  return (await booksOfSeries(db, seriesId)).find((b) => b.position === series.currentBook);
}

/** Chapters of a book by position (then creation), but those in the Trash. */
export async function chaptersOfBook(db: ChroniclerDb, bookId: string): Promise<Chapter[]> {
  const rows = await db.chapters.where('[bookId+position]').between([bookId, Dexie.minKey], [bookId, Dexie.maxKey]).toArray();
  return shown(rows).sort(inOrder);
}

/** The series' chapters that are not in the Trash, nor in a book that is (so book and series word counts follow). */
export async function chaptersOfSeries(db: ChroniclerDb, seriesId: string): Promise<Chapter[]> {
  const [chapters, books] = await Promise.all([db.chapters.where('seriesId').equals(seriesId).toArray(), db.books.where('seriesId').equals(seriesId).toArray()]);
  const hidden = new Set(books.filter((b) => b.deletedAt || b.trashedAt).map((b) => b.id));
  return shown(chapters).filter((c) => !hidden.has(c.bookId));
}

/** One entry of a series' Trash: a trashed book (with its chapters' words) or a trashed chapter (with its book). */
export type TrashEntry =
  | { kind: 'books'; book: Book; trashedAt: string; chapterCount: number; wordCount: number }
  | { kind: 'chapters'; chapter: Chapter; book: Book | undefined; trashedAt: string };

/** A series' Trash, newest first (the server purges each entry TRASH_RETENTION_DAYS after `trashedAt`). */
export async function trashOfSeries(db: ChroniclerDb, seriesId: string): Promise<TrashEntry[]> {
  const [chapters, books] = await Promise.all([db.chapters.where('seriesId').equals(seriesId).toArray(), db.books.where('seriesId').equals(seriesId).toArray()]);
  const liveBooks = new Map(live(books).map((b) => [b.id, b]));
  const liveChapters = live(chapters);
  const entries: TrashEntry[] = [];
  for (const book of liveBooks.values()) {
    if (!book.trashedAt) continue;
    const inside = liveChapters.filter((c) => c.bookId === book.id && !c.trashedAt);
    entries.push({ kind: 'books', book, trashedAt: book.trashedAt, chapterCount: inside.length, wordCount: inside.reduce((n, c) => n + c.wordCount, 0) });
  }
  for (const chapter of liveChapters) {
    if (chapter.trashedAt) entries.push({ kind: 'chapters', chapter, book: liveBooks.get(chapter.bookId), trashedAt: chapter.trashedAt });
  }
  const idOf = (e: TrashEntry) => (e.kind === 'books' ? e.book.id : e.chapter.id);
  return entries.sort((a, b) => b.trashedAt.localeCompare(a.trashedAt) || idOf(a).localeCompare(idOf(b)));
}

/** One chapter, including one deleted elsewhere while this device still holds unsent edits. */
export async function getChapter(db: ChroniclerDb, id: string): Promise<Chapter | undefined> {
  return db.chapters.get(id);
}

/** Recently edited chapters across all series, newest first. */
export async function recentChapters(db: ChroniclerDb, limit = 10): Promise<Chapter[]> {
  return shown(await db.chapters.orderBy('updatedAt').reverse().limit(limit * 2).toArray()).slice(0, limit);
}

export async function charactersOfSeries(db: ChroniclerDb, seriesId: string): Promise<Character[]> {
  const rows = await db.characters.where('[seriesId+name]').between([seriesId, Dexie.minKey], [seriesId, Dexie.maxKey]).toArray();
  return live(rows);
}

export async function getCharacter(db: ChroniclerDb, id: string): Promise<Character | undefined> {
  return db.characters.get(id);
}

export async function relationshipsOfSeries(db: ChroniclerDb, seriesId: string): Promise<CharacterRelationship[]> {
  return live(await db.characterRelationships.where('seriesId').equals(seriesId).toArray()).sort(byCreated);
}

/** Relationships where the character is the source or the target. */
export async function relationshipsOfCharacter(db: ChroniclerDb, characterId: string): Promise<CharacterRelationship[]> {
  const [from, to] = await Promise.all([
    db.characterRelationships.where('sourceCharacterId').equals(characterId).toArray(),
    db.characterRelationships.where('targetCharacterId').equals(characterId).toArray(),
  ]);
  return live([...new Map([...from, ...to].map((r) => [r.id, r])).values()]).sort(byCreated);
}

export async function locationsOfSeries(db: ChroniclerDb, seriesId: string): Promise<Location[]> {
  const rows = await db.locations.where('[seriesId+name]').between([seriesId, Dexie.minKey], [seriesId, Dexie.maxKey]).toArray();
  return live(rows);
}

/** Timeline events of a series in narrative order (position, then creation). */
export async function timelineOfSeries(db: ChroniclerDb, seriesId: string): Promise<TimelineEvent[]> {
  const rows = await db.timelineEvents.where('[seriesId+position]').between([seriesId, Dexie.minKey], [seriesId, Dexie.maxKey]).toArray();
  return live(rows).sort(inOrder);
}

/** Timeline events a character takes part in, in narrative order. */
export async function timelineOfCharacter(db: ChroniclerDb, characterId: string): Promise<TimelineEvent[]> {
  return live(await db.timelineEvents.where('characterIds').equals(characterId).toArray()).sort(inOrder);
}

export async function timelineOfBook(db: ChroniclerDb, bookId: string): Promise<TimelineEvent[]> {
  return live(await db.timelineEvents.where('bookId').equals(bookId).toArray()).sort(inOrder);
}

/**
 * A series' canon changes in recorded order (docs/decisions/0017-canon-changes.md); the resolver of
 * @chronicler/schema places them in the story (`canonTimeline`).
 */
export async function canonChangesOfSeries(db: ChroniclerDb, seriesId: string): Promise<CanonChange[]> {
  return live(await db.canonChanges.where('seriesId').equals(seriesId).toArray()).sort(byCreated);
}

/** The canon changes of one character, place or relationship, in recorded order. */
export async function canonChangesOfEntity(db: ChroniclerDb, entityId: string): Promise<CanonChange[]> {
  return live(await db.canonChanges.where('entityId').equals(entityId).toArray()).sort(byCreated);
}

/** A series' world entries (docs/decisions/0020-world-entries.md), every category, in recorded order. */
export async function worldEntriesOfSeries(db: ChroniclerDb, seriesId: string): Promise<WorldEntry[]> {
  return live(await db.worldEntries.where('seriesId').equals(seriesId).toArray()).sort(byCreated);
}

/** One World tab's entries, in recorded order. */
export async function worldEntriesOfCategory(db: ChroniclerDb, seriesId: string, category: WorldCategory): Promise<WorldEntry[]> {
  return live(await db.worldEntries.where('[seriesId+category]').equals([seriesId, category]).toArray()).sort(byCreated);
}

/**
 * The entries that link a character (as a link or as a faction's leader) or a place: the other
 * side of the links, read by the multi-entry indexes.
 */
export async function worldEntriesLinking(db: ChroniclerDb, target: { characterId: string } | { locationId: string }): Promise<WorldEntry[]> {
  const rows =
    'characterId' in target
      ? [
          ...(await db.worldEntries.where('characterIds').equals(target.characterId).toArray()),
          ...(await db.worldEntries.where('leaderId').equals(target.characterId).toArray()),
        ]
      : await db.worldEntries.where('locationIds').equals(target.locationId).toArray();
  return live([...new Map(rows.map((r) => [r.id, r])).values()]).sort((a, b) => a.name.localeCompare(b.name));
}

/** Unresolved conflict copies of a chapter, oldest first. */
export async function conflictsOfChapter(db: ChroniclerDb, chapterId: string): Promise<ChapterConflict[]> {
  return live(await db.chapterConflicts.where('chapterId').equals(chapterId).toArray()).sort(byCreated);
}

export async function conflictsOfSeries(db: ChroniclerDb, seriesId: string): Promise<ChapterConflict[]> {
  return live(await db.chapterConflicts.where('seriesId').equals(seriesId).toArray()).sort(byCreated);
}

export async function draftOf(db: ChroniclerDb, chapterId: string): Promise<Draft | undefined> {
  return db.drafts.get(chapterId);
}

/** Number of outbox entries not yet acknowledged (for "N unsynced changes" and the sign-out warning). */
export async function unsyncedCount(db: ChroniclerDb): Promise<number> {
  return db.outbox.count();
}

/** True when the row has local changes the server has not acknowledged yet. */
export async function hasPendingChanges(db: ChroniclerDb, entity: string, id: string): Promise<boolean> {
  return (await db.outbox.where('touches').equals(`${entity}:${id}`).count()) > 0;
}

export async function deadLetters(db: ChroniclerDb): Promise<DeadLetter[]> {
  return db.deadLetters.orderBy('createdAt').reverse().toArray();
}

/**
 * The signed-in author's own record (plan, time zone …) as last synced, or undefined before the
 * first pull brought it. A user-scoped row: the server writes it, the changes feed brings it.
 */
export async function currentUserRecord(db: ChroniclerDb): Promise<UserRecord | undefined> {
  const row = await db.users.get(db.userId);
  return row && row.deletedAt === null ? row : undefined;
}
