/**
 * Where the caret was in each chapter on this device, so a chapter opens where the author left it
 * (docs/decisions/0001-editor-scrolls-with-the-page.md). Device-local, like the scroll position
 * of any document: it is not synced, at most `MAX_CHAPTERS` chapters are remembered (the ones
 * moved in last), and signing out forgets them (lib/session). The rule takes its storage as an
 * argument (tested without a browser); `localCarets` is this device's.
 */
import { CARETS_KEY } from './caretMemoryKey';
import { readLocal, writeLocal } from './storage';

export const localCarets: CaretStore = {
  read: () => readLocal(CARETS_KEY),
  write: (value) => writeLocal(CARETS_KEY, value),
};

export interface CaretStore {
  read(): string | null;
  write(value: string): void;
}

/** anchor, head (offsets in the chapter text) and when it was remembered (ms). */
type Entry = [anchor: number, head: number, at: number];
type Memory = Record<string, Entry>;

export const MAX_CHAPTERS = 200;

function parse(raw: string | null): Memory {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    const memory: Memory = {};
    for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
      if (Array.isArray(entry) && entry.length === 3 && entry.every((n) => Number.isSafeInteger(n) && n >= 0)) {
        memory[id] = entry as Entry;
      }
    }
    return memory;
  } catch {
    return {};
  }
}

export interface Caret {
  anchor: number;
  head: number;
}

/** The remembered caret of a chapter, clamped to its text's length (the text may have changed since). */
export function recallCaret(store: CaretStore, chapterId: string, textLength: number): Caret | null {
  const entry = parse(store.read())[chapterId];
  if (!entry) return null;
  return { anchor: Math.min(entry[0], textLength), head: Math.min(entry[1], textLength) };
}

/**
 * Of `chapterIds`, the one whose caret moved last on this device (the chapter the author was last
 * writing here), or null when none was remembered.
 */
export function lastCaretChapter(store: CaretStore, chapterIds: Iterable<string>): string | null {
  const memory = parse(store.read());
  let last: string | null = null;
  for (const id of chapterIds) {
    const entry = memory[id];
    if (entry && (last === null || entry[2] > memory[last]![2])) last = id;
  }
  return last;
}

/** Remembers a chapter's caret; the least recently remembered chapters are forgotten past the cap. */
export function rememberCaret(store: CaretStore, chapterId: string, caret: Caret, now: number): void {
  const memory = parse(store.read());
  memory[chapterId] = [caret.anchor, caret.head, now];
  const ids = Object.keys(memory);
  if (ids.length > MAX_CHAPTERS) {
    ids.sort((a, b) => memory[a]![2] - memory[b]![2]);
    for (const id of ids.slice(0, ids.length - MAX_CHAPTERS)) delete memory[id];
  }
  store.write(JSON.stringify(memory));
}
