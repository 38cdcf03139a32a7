/**
 * Words as search sees them: case- and accent-folded terms with their place in the text they came
 * from. The index (MiniSearch) and the hit finder read the same tokens, so what the index says
 * matches is what a snippet highlights (docs/decisions/0012-offline-search.md).
 */

/** Letters that do not decompose into a base letter and a mark (NFD leaves them whole). */
const FOLDED_LETTERS: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const UNFOLDED = /[ßæœøłđðþı]/gu;
const MARKS = /\p{M}+/gu;
const NON_ASCII = /[^ -~\t\n\r]/u;

/** A word folded for matching: lower case, accents dropped ("Élodie" → "elodie"), ’ read as '. */
export function foldTerm(word: string): string {
  const lower = word.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower.normalize('NFD').replace(MARKS, '').replace(UNFOLDED, (c) => FOLDED_LETTERS[c] ?? c).replace(/’/gu, "'");
}

export interface Token {
  /** The folded word. */
  readonly term: string;
  /** Where the word lies in the text it was read from: [from, to). */
  readonly from: number;
  readonly to: number;
}

/**
 * A word: letters and digits (with their combining marks), joined by inner apostrophes ("Mara's",
 * "don’t"). Anything else separates words, so `.*[(` holds none and a query is never a pattern.
 */
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;

export function wordTokens(text: string): Token[] {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    tokens.push({ term: foldTerm(match[0]), from: match.index, to: match.index + match[0].length });
  }
  return tokens;
}

/** The folded words of a text, for the index (no places: the index needs none). */
export function foldedWords(text: string): string[] {
  const words = text.match(WORD);
  return words ? words.map(foldTerm) : [];
}
