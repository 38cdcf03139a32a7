import type { Chapter } from '@chronicler/schema';

/** Auto-save fires this long after the last change (spec 001 §4, §9). */
export const AUTO_SAVE_DELAY_MS = 30_000;
/** Keystrokes reach IndexedDB as a local draft at most this long after they were typed. */
export const DRAFT_DELAY_MS = 400;
/** The last-saved text is refreshed this often. */
export const LAST_SAVED_REFRESH_MS = 30_000;

export const LEAVE_PROMPT = 'You have unsaved changes. Save before leaving?';
export const UNTITLED_BOOK = 'Untitled Book';

export type ChapterStatus = Chapter['status'];

/** The status selector's options (spec 001 §3). A new chapter starts as in_progress (§4). */
export const STATUS_OPTIONS: { value: ChapterStatus; label: string }[] = [
  { value: 'in_progress', label: 'In Progress' },
  { value: 'draft', label: 'Draft' },
  { value: 'revision', label: 'Revision' },
  { value: 'completed', label: 'Completed' },
];

/** The key of a keystroke draft: the chapter id, or `new:{bookId}` before a new chapter is created. */
export function draftKey(chapterId: string | null, bookId: string): string {
  return chapterId ?? `new:${bookId}`;
}

/** Where the back button goes: the series of the book when the book is known, otherwise home (001 §4). */
export function backTarget(book: { seriesId: string } | null | undefined): string {
  return book ? `/series?id=${encodeURIComponent(book.seriesId)}` : '/';
}

/** The editor's URL for a chapter (001 §2). */
export function editorUrl(chapterId: string, bookId: string, seriesId: string | null): string {
  const params = new URLSearchParams({ id: chapterId, bookId });
  if (seriesId) params.set('seriesId', seriesId);
  return `/chapter-editor?${params.toString()}`;
}

export const WRITING_TIPS: { title: string; text: string }[] = [
  { title: 'Write first, edit later', text: 'Let the draft be messy. Momentum matters more than perfect sentences.' },
  { title: 'Show, don’t tell', text: 'Let actions, dialogue and detail reveal what your characters feel.' },
  { title: 'End with a hook', text: 'Close the chapter on a question, a turn or a promise that pulls readers on.' },
  { title: 'Keep a steady rhythm', text: 'A small daily word goal beats an occasional marathon.' },
];

const NUMBER = new Intl.NumberFormat('en-US');
/** 20,000 — one shared formatter (toLocaleString builds a new one per call: too slow per keystroke). */
export function formatCount(n: number): string {
  return NUMBER.format(n);
}
