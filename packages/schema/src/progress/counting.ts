/**
 * What an edit of chapter text counts as writing (docs/server.md#writing-statistics): the words it
 * adds (gross) and the words it removes, on the word rule (rules.ts forEachWord), so
 * `added - removed` is exactly the change of the chapter's word count. Used by the server to
 * record each edit and by the client to show not yet acknowledged words.
 */
import { diffArrays } from 'diff';
import { wordBalance } from './word-balance.ts';

/**
 * A single save that adds more than this many words at once is a paste: recorded, flagged, and
 * not counted toward streaks, goals or achievements. A fast typist adds ~100 words a minute and the
 * editor saves every few seconds, so only pasted blocks pass it.
 */
export const PASTE_THRESHOLD_WORDS = 500;

export interface WordDelta {
  added: number;
  removed: number;
}

/** Past this many line edits the lines are not paired up (one bag of words instead): bounded work. */
const MAX_LINE_EDITS = 200;

/**
 * Words `after` adds to and removes from `before`. Lines (paragraphs) are diffed first and words
 * only within each changed run of lines: a save that touches two paragraphs of a long chapter
 * costs two paragraphs' word diffs, not a word diff of everything between them (the server counts
 * every save: a 1,000-word chapter saved with edits far apart took ~3 ms here before).
 */
export function wordDelta(before: string, after: string): WordDelta {
  if (before === after) return { added: 0, removed: 0 };
  // A chapter save compares the same two texts twice: for its stored word count (editedWordCount)
  // and for the words it records. `===` compares the texts' characters, so a hit is always right.
  if (lastDelta !== null && lastDelta.before === before && lastDelta.after === after) return { ...lastDelta.delta };
  const delta = lineWordDelta(before, after);
  lastDelta = { before, after, delta };
  return { ...delta };
}

/** The last pair of texts wordDelta compared and its answer (two texts held: a chapter or two of memory). */
let lastDelta: { before: string; after: string; delta: WordDelta } | null = null;

function lineWordDelta(before: string, after: string): WordDelta {
  const a = before.split('\n');
  const b = after.split('\n');
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
  const parts = midA.length === 0 || midB.length === 0 ? undefined : diffArrays(midA, midB, { maxEditLength: MAX_LINE_EDITS });
  if (!parts) return wordBalance(midA, midB);
  let added = 0;
  let removed = 0;
  let gone: string[] = [];
  let come: string[] = [];
  const settle = () => {
    if (gone.length === 0 && come.length === 0) return;
    const delta = wordBalance(gone, come);
    added += delta.added;
    removed += delta.removed;
    gone = [];
    come = [];
  };
  for (const part of parts) {
    if (part.added) come.push(...part.value);
    else if (part.removed) gone.push(...part.value);
    else settle();
  }
  settle();
  return { added, removed };
}

/**
 * The word count of `text` edited from `previous`, whose stored count is `previous.wordCount`: that
 * count plus the words the edit added minus those it removed, which is exactly the change of the
 * editor count (wordDelta compares lines, then words within changed lines). A save compares the
 * two texts anyway to record its words (classifyEdit reuses this comparison), so its
 * count costs nothing more than the comparison. `previous.wordCount` must be chapterWordCount of
 * `previous.content` — true of every stored chapter, which only the server counts (word-count.ts chapterWordCount).
 */
export function editedWordCount(previous: { content: string; wordCount: number }, text: string): number {
  if (text === previous.content) return previous.wordCount;
  const { added, removed } = wordDelta(previous.content, text);
  return previous.wordCount + added - removed;
}

/**
 * Why a save changed the text. Only `writing` counts; the others are recorded as not writing:
 * restoring a revision, accepting a conflict copy, importing, inserting a companion suggestion,
 * restructuring (a split or a merge of chapters moves words, it writes none: restructure.ts).
 */
export const EDIT_KINDS = ['writing', 'restore', 'conflict-accept', 'import', 'companion', 'restructure'] as const;
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
