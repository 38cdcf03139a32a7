/**
 * Restructuring a series (docs/decisions/0014-trash-and-restructure.md): the Trash, a chapter's move
 * to another book, a split at the cursor and a merge with the next chapter. The rules both sides
 * apply, so the device's optimistic rows sit where the server puts them.
 *
 * - A trashed book or chapter is a live row with `trashedAt` set: it keeps its id, position, text,
 *   revisions and everything that names it, and the fields merge combines a trash on one device
 *   with an edit on another (the edited chapter ends in the Trash). After TRASH_RETENTION_DAYS the
 *   server's purge deletes it for good (a tombstone, as any delete).
 * - A chapter of a trashed book is hidden with its book and comes back with it.
 */
import { byPosition, renumbered } from './positions.ts';

/** How long a trashed book or chapter can be restored before the server purges it. */
export const TRASH_RETENTION_DAYS = 30;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;

export const RESTRUCTURE_MESSAGES = {
  splitAtEdge: 'Place the cursor inside the chapter’s text: a split at its very start or end would leave an empty chapter.',
  mergeNoNext: 'This is the last chapter of its book: there is no next chapter to merge with.',
  mergeAcrossBooks: 'Only chapters of the same book can be merged. Move the chapter into this book first.',
  moveSameBook: 'The chapter is already in this book.',
  moveOtherSeries: 'A chapter can only move to another book of its own series.',
  moveIntoTrashedBook: 'That book is in the Trash. Restore it first, or choose another book.',
  restoreIntoTrashedBook: 'This chapter’s book is in the Trash. Restore the book first, or move the chapter to another book.',
  notInTrash: 'This is not in the Trash.',
  alreadyInTrash: 'This is already in the Trash.',
} as const;

export interface Trashable {
  trashedAt?: string | null;
}

export function isTrashed(row: Trashable | null | undefined): boolean {
  return !!row?.trashedAt;
}

/** When a trashed row is purged for good (its `trashedAt` plus the retention). */
export function purgeDueAt(trashedAt: string): Date {
  return new Date(new Date(trashedAt).getTime() + TRASH_RETENTION_MS);
}

/** The moment before which a trashed row is due for purging, seen at `nowMs`. */
export function purgeCutoff(nowMs: number): string {
  return new Date(nowMs - TRASH_RETENTION_MS).toISOString();
}

export class RestructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestructureError';
  }
}

/**
 * A chapter's text split at `offset` (a caret in the text): the head stays, the tail becomes the
 * next chapter. Line breaks at the cut go with neither part, so no chapter starts or ends blank.
 * A split leaving either part without words is refused (RESTRUCTURE_MESSAGES.splitAtEdge).
 */
export function splitChapterText(content: string, offset: number): { head: string; tail: string } {
  const at = Math.max(0, Math.min(content.length, Math.trunc(offset)));
  const head = content.slice(0, at).replace(/\n+$/, '');
  const tail = content.slice(at).replace(/^\n+/, '');
  if (head.trim() === '' || tail.trim() === '') throw new RestructureError(RESTRUCTURE_MESSAGES.splitAtEdge);
  return { head, tail };
}

/** A chapter's text with the next one's appended as following paragraphs (a line is a paragraph: docs/sync-protocol.md). */
export function mergedChapterText(first: string, next: string): string {
  if (first === '') return next;
  if (next === '') return first;
  return `${first}\n${next}`;
}

interface Ordered {
  id: string;
  position: number;
  createdAt: string;
}

/**
 * The positions a move of `moving` into another book leaves: the source book's other chapters
 * renumbered 1..n, and the target book's with `moving` at `position` (last when absent or past the
 * end). Each list is in its new order, with whether each row's position changes.
 */
export function movedChapterOrder<T extends Ordered>(
  sourceLive: readonly T[],
  targetLive: readonly T[],
  moving: T,
  position?: number,
): { source: ReturnType<typeof renumbered<T>>; target: ReturnType<typeof renumbered<T>> } {
  const source = sourceLive.filter((c) => c.id !== moving.id).sort(byPosition);
  const target = targetLive.filter((c) => c.id !== moving.id).sort(byPosition);
  const at = position === undefined ? target.length : Math.max(0, Math.min(target.length, position - 1));
  target.splice(at, 0, moving);
  return { source: renumbered(source), target: renumbered(target) };
}
