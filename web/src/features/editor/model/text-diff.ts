/**
 * Comparing two versions of a chapter (conflict copies, revisions) and proposing merges.
 *
 * Built on jsdiff (`diff`): a maintained Myers O(ND) implementation with array, word and
 * whitespace-aware tokenizers and a `timeout` that bounds the cost on very different texts. The
 * three-way merge is shared with the server (`mergeChapterText` in @chronicler/schema, on lines);
 * the display compares the same way: paragraphs (lines) first, then words inside the paragraphs
 * that changed, so a 20,000-word chapter with one edited sentence costs a few hundred line
 * comparisons and one short word diff.
 */
import { mergeChapterText } from '@chronicler/schema';
import { diffArrays, diffWordsWithSpace } from 'diff';

/** A run of text in one side of a comparison. */
export interface DiffPart {
  text: string;
  /** 'same' on both sides; 'removed' only on the left; 'added' only on the right. */
  kind: 'same' | 'removed' | 'added';
}

export type DiffRow =
  | { type: 'same'; paragraphs: string[] }
  /** Unchanged paragraphs left out of the view (long runs are folded). */
  | { type: 'fold'; count: number }
  | { type: 'changed'; left: DiffPart[]; right: DiffPart[] };

export interface Comparison {
  rows: DiffRow[];
  /** Paragraph regions that differ. */
  changes: number;
  identical: boolean;
  /** Not identical, yet no paragraph reads differently (only spaces at line ends or trailing blank lines differ). */
  spacingOnly: boolean;
}

const PARAGRAPH_TIMEOUT_MS = 400;
const WORD_TIMEOUT_MS = 150;
/** Unchanged runs longer than this are folded, keeping `CONTEXT` paragraphs each side. */
const FOLD_OVER = 4;
const CONTEXT = 1;

/**
 * The paragraphs (lines) of a text as an author reads them: without the spaces at their ends and
 * without blank lines after the last one. Both are invisible, so two versions that differ only
 * there compare equal: an author who typed "He left. " and later Enter and a new paragraph has
 * changed nothing in "He left." (it once showed in both columns as a changed passage).
 */
export function paragraphsOf(text: string): string[] {
  const paragraphs = text.split('\n').map((line) => line.trimEnd());
  while (paragraphs.length > 1 && paragraphs[paragraphs.length - 1] === '') paragraphs.pop();
  return paragraphs;
}

/** Word-level parts of two changed regions (whole regions when the word diff would be too costly). */
export function wordDiff(left: string, right: string): { left: DiffPart[]; right: DiffPart[] } {
  const changes = left.length + right.length > 200_000 ? undefined : diffWordsWithSpace(left, right, { timeout: WORD_TIMEOUT_MS });
  if (!changes) {
    return {
      left: left ? [{ text: left, kind: 'removed' }] : [],
      right: right ? [{ text: right, kind: 'added' }] : [],
    };
  }
  const l: DiffPart[] = [];
  const r: DiffPart[] = [];
  const push = (side: DiffPart[], part: DiffPart) => {
    const last = side[side.length - 1];
    if (last && last.kind === part.kind) last.text += part.text;
    else side.push({ ...part });
  };
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const changedAround = (step: number) => {
      const n = changes[i + step];
      return !!n && (n.added || n.removed);
    };
    // A lone space between two changed words belongs to the change: "Mine wins" vs "Theirs was"
    // reads as one replaced phrase, not four replaced words.
    const glue = !c.added && !c.removed && c.value.trim() === '' && !c.value.includes('\n') && changedAround(-1) && changedAround(1);
    if (c.added) push(r, { text: c.value, kind: 'added' });
    else if (c.removed) push(l, { text: c.value, kind: 'removed' });
    else if (glue) {
      push(l, { text: c.value, kind: 'removed' });
      push(r, { text: c.value, kind: 'added' });
    } else {
      push(l, { text: c.value, kind: 'same' });
      push(r, { text: c.value, kind: 'same' });
    }
  }
  return { left: l, right: r };
}

const nonBlank = (paragraphs: readonly string[]) => paragraphs.filter((p) => p.trim() !== '').length;

/**
 * Unchanged paragraphs; a long run is folded, keeping the nearest written paragraph on each side
 * that touches a change (blank separator lines are not worth showing on their own).
 */
function pushSame(rows: DiffRow[], paragraphs: string[], first: boolean, last: boolean): void {
  if (nonBlank(paragraphs) <= FOLD_OVER) {
    rows.push({ type: 'same', paragraphs });
    return;
  }
  let head = 0;
  if (!first) {
    let seen = 0;
    while (head < paragraphs.length && seen < CONTEXT) if (paragraphs[head++]!.trim() !== '') seen++;
  }
  let tail = paragraphs.length;
  if (!last) {
    let seen = 0;
    while (tail > head && seen < CONTEXT) if (paragraphs[--tail]!.trim() !== '') seen++;
  }
  if (head > 0) rows.push({ type: 'same', paragraphs: paragraphs.slice(0, head) });
  rows.push({ type: 'fold', count: nonBlank(paragraphs.slice(head, tail)) });
  if (tail < paragraphs.length) rows.push({ type: 'same', paragraphs: paragraphs.slice(tail) });
}

/** Side-by-side comparison of `left` (e.g. the current text) and `right` (the other version). */
export function compareTexts(left: string, right: string): Comparison {
  const a = paragraphsOf(left);
  const b = paragraphsOf(right);
  if (left === right || (a.length === b.length && a.every((p, i) => p === b[i]))) {
    const rows: DiffRow[] = [];
    pushSame(rows, a, true, true);
    return { rows, changes: 0, identical: left === right, spacingOnly: left !== right };
  }
  const changes = diffArrays(a, b, { timeout: PARAGRAPH_TIMEOUT_MS });
  if (!changes) {
    return { rows: [{ type: 'changed', ...wordDiff(left, right) }], changes: 1, identical: false, spacingOnly: false };
  }
  const rows: DiffRow[] = [];
  let count = 0;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (!c.added && !c.removed) {
      pushSame(rows, c.value, i === 0, i === changes.length - 1);
      continue;
    }
    // A removal followed by an addition is one changed region, compared word by word.
    let removed: string[] = [];
    let added: string[] = [];
    if (c.removed) {
      removed = c.value;
      const next = changes[i + 1];
      if (next?.added) {
        added = next.value;
        i++;
      }
    } else {
      added = c.value;
    }
    count++;
    rows.push({ type: 'changed', ...wordDiff(removed.join('\n'), added.join('\n')) });
  }
  return { rows, changes: count, identical: false, spacingOnly: false };
}

/**
 * A merge proposal that loses nothing: paragraphs both versions share appear once, and where they
 * differ the paragraphs of `mine` come first, then those of `theirs`. The author edits it down.
 */
export function unionMerge(mine: string, theirs: string): string {
  if (mine === theirs) return mine;
  // Lines exactly as written: the merge is text the author keeps, so nothing in it is dropped.
  const changes = diffArrays(mine.split('\n'), theirs.split('\n'), { timeout: PARAGRAPH_TIMEOUT_MS });
  if (!changes) return `${mine}\n\n${theirs}`;
  const out: string[] = [];
  for (const c of changes) out.push(...c.value);
  return out.join('\n');
}

export type ThreeWayResult = { clean: true; text: string } | { clean: false };

/**
 * The editor's merge-before-save: the server's merge (`mergeChapterText`,
 * docs/sync-protocol.md#chapter-text-merge), called as the server would call it had this text been
 * sent from `base` — `theirs` (saved elsewhere) is the server's current text and `mine` the
 * incoming one — so the editor and the server always agree.
 */
export function threeWayMerge(base: string, mine: string, theirs: string): ThreeWayResult {
  const merged = mergeChapterText(base, theirs, mine);
  return merged.conflict === null ? { clean: true, text: merged.text } : { clean: false };
}
