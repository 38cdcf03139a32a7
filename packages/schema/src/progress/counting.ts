/**
 * What an edit of chapter text counts as writing (DESIGN.md §4 "Writing statistics"): the words it
 * adds (gross) and the words it removes, on the editor's word rule (rules.ts countWordsEditor), so
 * `added - removed` is exactly the change of the chapter's word count. Used by the server to
 * record each edit and by the client to show not yet acknowledged words.
 */
import { diffArrays } from 'diff';

const PUNCTUATION = /\p{P}/gu;
const WHITESPACE = /\s+/u;

/** The words of a text on the editor's rule (punctuation is a separator). */
export function editorWords(text: string): string[] {
  return text.replace(PUNCTUATION, ' ').split(WHITESPACE).filter((w) => w !== '');
}

/**
 * A single save that adds more than this many words at once is a paste: recorded, flagged, and
 * not counted toward streaks, goals or achievements. A fast typist adds ~100 words a minute and the
 * editor saves every few seconds, so only pasted blocks pass it.
 */
export const PASTE_THRESHOLD_WORDS = 500;

/**
 * Past this many differing words on each side, the diff is skipped and the net change is used (a
 * restore or an import replaces most of a chapter; counting it word by word buys nothing).
 */
const MAX_DIFFED_WORDS = 20_000;

export interface WordDelta {
  added: number;
  removed: number;
}

/** Words `after` adds to and removes from `before`: a word diff of the part between the common prefix and suffix. */
export function wordDelta(before: string, after: string): WordDelta {
  if (before === after) return { added: 0, removed: 0 };
  const a = editorWords(before);
  const b = editorWords(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length === 0 || midB.length === 0) return { added: midB.length, removed: midA.length };
  if (midA.length > MAX_DIFFED_WORDS || midB.length > MAX_DIFFED_WORDS) {
    const net = midB.length - midA.length;
    return net >= 0 ? { added: net, removed: 0 } : { added: 0, removed: -net };
  }
  let added = 0;
  let removed = 0;
  for (const part of diffArrays(midA, midB)) {
    if (part.added) added += part.count ?? part.value.length;
    else if (part.removed) removed += part.count ?? part.value.length;
  }
  return { added, removed };
}

/**
 * Why a save changed the text. Only `writing` counts; the others are recorded as not writing:
 * restoring a revision, accepting a conflict copy, importing, inserting a companion suggestion.
 */
export const EDIT_KINDS = ['writing', 'restore', 'conflict-accept', 'import', 'companion'] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

export interface ClassifiedEdit extends WordDelta {
  kind: EditKind;
  /** A writing edit that adds more than PASTE_THRESHOLD_WORDS at once. */
  pasted: boolean;
  /** Words that count toward the day's figure, streaks, goals and achievements. */
  counted: number;
}

/** Counts one save: gross added and removed always; `counted` only for writing that is not a paste. */
export function classifyEdit(before: string, after: string, kind: EditKind): ClassifiedEdit {
  const delta = wordDelta(before, after);
  const pasted = kind === 'writing' && delta.added > PASTE_THRESHOLD_WORDS;
  return { ...delta, kind, pasted, counted: kind === 'writing' && !pasted ? delta.added : 0 };
}
