/**
 * What the author typed, read as a query: loose words (matched by prefix and with a typo allowed)
 * and quoted phrases (matched word for word, in order). Everything else is a separator, so a query
 * is never a pattern: `.*[(` is no words at all (docs/decisions/0012-offline-search.md).
 */
import { foldTerm, foldedWords } from './tokens.ts';

/** Shorter queries find nothing (and show nothing): a single letter matches half the series. */
export const MIN_QUERY_CHARS = 2;
/**
 * Only the first words of a long query are matched loosely (prefix, typo): each loose word costs a
 * walk of the index's tree, the rest an exact look-up, so a pasted paragraph answers quickly.
 */
export const LOOSE_TERMS_MAX = 8;
/** A loose word must be this long to match as a prefix ("ma" → "Mara") … */
export const PREFIX_MIN_CHARS = 2;
/** … and this long to forgive a typo ("Elodei" → "Élodie")… */
export const TYPO_MIN_CHARS = 4;
/**
 * … of one edit per three letters (MiniSearch's fuzzy fraction): a swapped pair is two edits, so
 * a six-letter name forgives one swap, a four-letter one a single wrong letter.
 */
export const TYPO_FRACTION = 0.34;

export interface QueryTerm {
  readonly term: string;
  /** The phrase this word belongs to (an index into `phrases`), or null for a loose word. */
  readonly phrase: number | null;
}

export interface ParsedQuery {
  /** Every word to look up, loose words first; loose words once each. */
  readonly terms: readonly QueryTerm[];
  /** The quoted phrases, each as its folded words (phrases of one word are loose words). */
  readonly phrases: readonly (readonly string[])[];
  /** Nothing to search for: too short, or no words. */
  readonly empty: boolean;
}

const EMPTY: ParsedQuery = { terms: [], phrases: [], empty: true };

export function parseQuery(input: string): ParsedQuery {
  const text = input.trim();
  if (text.length < MIN_QUERY_CHARS) return EMPTY;
  // Straight and typographic quotes alike; an unclosed quote runs to the end.
  const parts = text.replace(/[“”„«»]/gu, '"').split('"');
  const loose: string[] = [];
  const phrases: string[][] = [];
  parts.forEach((part, i) => {
    const words = foldedWords(part);
    if (i % 2 === 1 && words.length > 1) phrases.push(words);
    else loose.push(...words);
  });
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  for (const term of loose) {
    if (seen.has(term)) continue;
    seen.add(term);
    terms.push({ term, phrase: null });
  }
  phrases.forEach((words, phrase) => words.forEach((term) => terms.push({ term, phrase })));
  if (terms.length === 0) return EMPTY;
  return { terms, phrases, empty: false };
}

/** Whether the query's i-th term matches as a prefix. */
export function matchesAsPrefix(query: ParsedQuery, i: number): boolean {
  const term = query.terms[i];
  return !!term && term.phrase === null && i < LOOSE_TERMS_MAX && term.term.length >= PREFIX_MIN_CHARS;
}

/** The typo allowance of the query's i-th term (a fraction of its length, as MiniSearch takes it), or 0. */
export function typoAllowance(query: ParsedQuery, i: number): number {
  const term = query.terms[i];
  return term && term.phrase === null && i < LOOSE_TERMS_MAX && term.term.length >= TYPO_MIN_CHARS ? TYPO_FRACTION : 0;
}

/** A folded word of the text matches a loose word of the query (what highlighting checks, besides the index's own matches). */
export function looseTermsOf(query: ParsedQuery): string[] {
  return query.terms.filter((t) => t.phrase === null).map((t) => t.term);
}

export { foldTerm };
