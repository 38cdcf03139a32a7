/**
 * Where a query matches inside a document: the hits of each field, counted, with snippets and the
 * source range of each (so the editor can select it in the marked text). The index proposes
 * documents; this decides what they hold: a quoted phrase is checked here word by word, because
 * the index only knows which words a document has (docs/decisions/0012-offline-search.md).
 */
import { type VisibleMap, sourceRange, visibleTextMap } from '../markup/parse.ts';
import type { SearchField } from './documents.ts';
import type { ParsedQuery } from './query.ts';
import { type Token, wordTokens } from './tokens.ts';

/** A field as search reads it: the visible text, its words, and the way back to the source. */
export interface ReadField {
  readonly field: SearchField;
  readonly map: VisibleMap;
  readonly tokens: readonly Token[];
}

export function readField(field: SearchField): ReadField {
  const map = field.markup ? visibleTextMap(field.text) : identityMap(field.text);
  return { field, map, tokens: wordTokens(map.text) };
}

function identityMap(text: string): VisibleMap {
  return {
    text,
    get sourceOf(): Int32Array {
      const sourceOf = new Int32Array(text.length + 1);
      for (let i = 0; i <= text.length; i++) sourceOf[i] = i;
      return sourceOf;
    },
  };
}

export interface Hit {
  readonly field: string;
  /** In the visible text. */
  readonly from: number;
  readonly to: number;
}

/** Between the words of a phrase: spaces and light punctuation, never a paragraph or a sentence's end. */
const PHRASE_GAP = /^[^\n.!?;:]*$/u;

/**
 * The hits of a query in one field. `matched`: the words of the text the index matched for the
 * loose words (prefixes and typos included); a phrase must appear word for word, in order.
 */
export function fieldHits(read: ReadField, query: ParsedQuery, matched: ReadonlySet<string>): Hit[] {
  const { tokens, map } = read;
  const hits: Hit[] = [];
  const phraseWords = new Set(query.phrases.flat());
  const loose = query.terms.filter((t) => t.phrase === null).map((t) => t.term);
  const isLooseHit = (term: string) => matched.has(term) && (!phraseWords.has(term) || loose.some((q) => term.startsWith(q)));
  for (const token of tokens) if (isLooseHit(token.term)) hits.push({ field: read.field.name, from: token.from, to: token.to });
  for (const phrase of query.phrases) {
    for (let i = 0; i + phrase.length <= tokens.length; i++) {
      let k = 0;
      while (k < phrase.length && tokens[i + k]!.term === phrase[k] && (k === 0 || PHRASE_GAP.test(map.text.slice(tokens[i + k - 1]!.to, tokens[i + k]!.from)))) k++;
      if (k === phrase.length) hits.push({ field: read.field.name, from: tokens[i]!.from, to: tokens[i + k - 1]!.to });
    }
  }
  return hits.sort((a, b) => a.from - b.from || b.to - a.to);
}

export interface Snippet {
  readonly before: string;
  readonly match: string;
  readonly after: string;
  /** Text was left out before / after. */
  readonly cutBefore: boolean;
  readonly cutAfter: boolean;
}

/** Characters of context each side of a hit. */
export const SNIPPET_CONTEXT = 60;

/** A hit in its paragraph, cut at words about `context` characters each side. */
export function snippetOf(text: string, from: number, to: number, context = SNIPPET_CONTEXT): Snippet {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const lineEndAt = text.indexOf('\n', to);
  const lineEnd = lineEndAt === -1 ? text.length : lineEndAt;
  let start = Math.max(lineStart, from - context);
  if (start > lineStart) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < from) start = space + 1;
  }
  let end = Math.min(lineEnd, to + context);
  if (end < lineEnd) {
    const space = text.lastIndexOf(' ', end);
    if (space > to) end = space;
  }
  return { before: text.slice(start, from), match: text.slice(from, to), after: text.slice(to, end), cutBefore: start > lineStart, cutAfter: end < lineEnd };
}

/**
 * A hit as a range of the field's source. A hit that holds part of an emphasis's markers (`*silver*
 * key` for "silver key") takes the rest of them too, so selecting or replacing it never leaves a
 * lone marker behind; a hit inside an emphasis (`*silver*` for "silver") stays inside it.
 */
export function hitSource(read: ReadField, hit: Hit): { from: number; to: number } {
  if (!read.field.markup) return { from: hit.from, to: hit.to };
  const range = sourceRange(read.map, hit.from, hit.to);
  if (range.to - range.from === hit.to - hit.from) return range;
  const source = read.field.text;
  const visible = read.map.sourceOf;
  let { from, to } = range;
  while (from > 0 && source[from - 1] === '*' && !isVisible(visible, from - 1)) from--;
  while (to < source.length && source[to] === '*' && !isVisible(visible, to)) to++;
  return { from, to };
}

/** Whether source offset `at` is a character the author reads (`sourceOf` is increasing). */
function isVisible(sourceOf: Int32Array, at: number): boolean {
  let lo = 0;
  let hi = sourceOf.length - 2;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = sourceOf[mid]!;
    if (value === at) return true;
    if (value < at) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
