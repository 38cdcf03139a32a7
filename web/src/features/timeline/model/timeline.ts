/**
 * Pure rules of the Timeline page (spec 001 §2 "Timeline page", §4 "Timeline views", §9):
 * the chronological order, the narrative groups, the character filter and the renumbering after a
 * drag. No React, no database: unit-tested on their own.
 */
import { EVENT_IMPORTANCE, EVENT_TYPES, bookStatusDisplay, type Book, type BookStatusLabel, type TimelineEvent } from '@chronicler/schema';
import { sortByChronology } from './chronology';

export type EventType = (typeof EVENT_TYPES)[number];
export type EventImportance = (typeof EVENT_IMPORTANCE)[number];

export const EVENT_TYPE_LABELS: Readonly<Record<EventType, string>> = {
  plot: 'Plot',
  character: 'Character',
  world: 'World',
};

export const IMPORTANCE_LABELS: Readonly<Record<EventImportance, string>> = {
  major: 'Major',
  medium: 'Medium',
  minor: 'Minor',
};

export const EVENT_TYPE_OPTIONS = EVENT_TYPES.map((value) => ({ value, label: EVENT_TYPE_LABELS[value] }));
export const IMPORTANCE_OPTIONS = EVENT_IMPORTANCE.map((value) => ({ value, label: IMPORTANCE_LABELS[value] }));

export function eventTypeLabel(type: string): string {
  return EVENT_TYPE_LABELS[type as EventType] ?? EVENT_TYPE_LABELS.plot;
}

export function importanceLabel(importance: string): string {
  return IMPORTANCE_LABELS[importance as EventImportance] ?? IMPORTANCE_LABELS.medium;
}

/** The date shown on the left of the line: the free text, or 'Undated' when empty. */
export function dateLabel(date: string): string {
  return date.trim() === '' ? 'Undated' : date.trim();
}

type Ordered = Pick<TimelineEvent, 'position' | 'createdAt' | 'id'>;

/** Narrative order: position, then creation, then id (a stable order for equal positions). */
export function compareNarrative(a: Ordered, b: Ordered): number {
  return a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/**
 * Chronological view (001 §4): the dates in the author's order — eras, negative years first,
 * numbers as numbers, months and seasons in calendar order — and an undated event of a book in its
 * place in the story (`sortByChronology`, docs/spec-differences.md); undated events of no book
 * have no place in the story and come first, as the spec has them. Equal dates keep the story's order.
 */
export function sortChronological<T extends Ordered & Pick<TimelineEvent, 'date' | 'bookId'>>(events: readonly T[], books: readonly Book[], eraOrder: readonly string[] = []): T[] {
  const story: T[] = [];
  const unplaced: T[] = [];
  for (const group of groupNarrative(events, books)) {
    for (const event of group.events) (group.book === null && event.date.trim() === '' ? unplaced : story).push(event);
  }
  return sortByChronology([...unplaced, ...story], (e) => e.date, eraOrder);
}

/** The events' dates in the story's order (what the era order control lists eras from). */
export function datesInStoryOrder<T extends Ordered & Pick<TimelineEvent, 'date' | 'bookId'>>(events: readonly T[], books: readonly Book[]): string[] {
  return groupNarrative(events, books).flatMap((group) => group.events.map((event) => event.date));
}

/** 'Book {position}: {title}' (001 §2). */
export function bookGroupLabel(book: Pick<Book, 'position' | 'title'>): string {
  return `Book ${book.position}: ${book.title}`;
}

export const GENERAL_GROUP_ID = 'general';
export const GENERAL_GROUP_LABEL = 'General Events';

export interface NarrativeGroup<T> {
  /** The book id, or GENERAL_GROUP_ID for events without a book. */
  id: string;
  label: string;
  /** null for the general group. */
  book: Book | null;
  /** The book's status as the author chose it, null for the general group. */
  status: BookStatusLabel | null;
  /** In narrative order (position). */
  events: T[];
}

/**
 * Narrative view (001 §2, §4): one group per book in the order of the series (empty books too, so
 * the author sees where events are missing), each sorted by position; the events without a book
 * (or whose book is gone) go to 'General Events', LAST, shown only when it has events.
 */
export function groupNarrative<T extends Ordered & Pick<TimelineEvent, 'bookId'>>(events: readonly T[], books: readonly Book[]): NarrativeGroup<T>[] {
  const byBook = new Map<string, T[]>(books.map((b) => [b.id, []]));
  const general: T[] = [];
  for (const event of events) {
    const list = event.bookId !== null ? byBook.get(event.bookId) : undefined;
    (list ?? general).push(event);
  }
  const ordered = [...books].sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt));
  const groups: NarrativeGroup<T>[] = ordered.map((book) => ({
    id: book.id,
    label: bookGroupLabel(book),
    book,
    status: bookStatusDisplay(book.status),
    events: byBook.get(book.id)!.sort(compareNarrative),
  }));
  if (general.length > 0) {
    groups.push({ id: GENERAL_GROUP_ID, label: GENERAL_GROUP_LABEL, book: null, status: null, events: general.sort(compareNarrative) });
  }
  return groups;
}

export const ALL_CHARACTERS = 'all';

/**
 * Character view (001 §4): the events the chosen character takes part in, or every event when none
 * (or 'All Characters') is chosen; drawn on the dated line, in the chronological order of the whole
 * timeline (an undated event keeps its place even when the events around it are filtered out).
 */
export function filterByCharacter<T extends Ordered & Pick<TimelineEvent, 'date' | 'bookId' | 'characterIds'>>(
  chronological: readonly T[],
  characterId: string | null,
): T[] {
  const chosen = characterId && characterId !== ALL_CHARACTERS ? characterId : null;
  return chosen ? chronological.filter((e) => e.characterIds.includes(chosen)) : [...chronological];
}

/** Moves the item at `from` to `to` (a drop inside one list). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = items.slice();
  if (from < 0 || from >= next.length) return next;
  const [moved] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved as T);
  return next;
}

/**
 * After a drag within a group (001 §4): the group's events in their new order, renumbered from 1.
 * This is the body of the reorder call (`{events: [{id, position}]}`).
 */
export function renumberAfterDrop(groupEvents: readonly Pick<TimelineEvent, 'id'>[], from: number, to: number): { id: string; position: number }[] {
  return moveItem(groupEvents, from, to).map((e, i) => ({ id: e.id, position: i + 1 }));
}

/** The position of a new event at the end of its group (the spec's default 0 would put it first). */
export function nextPosition(events: readonly Pick<TimelineEvent, 'bookId' | 'position'>[], bookId: string | null): number {
  let max = 0;
  for (const e of events) if (e.bookId === bookId && e.position > max) max = e.position;
  return max + 1;
}
