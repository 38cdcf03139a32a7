/**
 * Character classes of the word pattern (text.ts WORD_PATTERN: runs of \p{L}\p{N} joined through
 * apostrophes to letters), shared by the word scanners: a table for ASCII, the Unicode properties
 * (cached) for the rest.
 */
export const LETTER = 1;
export const DIGIT = 2;
/** ASCII: 1 letter, 2 digit, 0 neither. */
export const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? LETTER : c >= 48 && c <= 57 ? DIGIT : 0,
);
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
/** Classes of the non-ASCII code points met so far (prose uses few). */
const otherClasses = new Map<number, number>();

export function classOf(codePoint: number): number {
  if (codePoint < 128) return ASCII_CLASS[codePoint]!;
  let c = otherClasses.get(codePoint);
  if (c === undefined) {
    const char = String.fromCodePoint(codePoint);
    c = IS_LETTER.test(char) ? LETTER : IS_NUMBER.test(char) ? DIGIT : 0;
    if (otherClasses.size < 10_000) otherClasses.set(codePoint, c);
  }
  return c;
}

export const APOSTROPHE = 0x27;
export const RIGHT_SINGLE_QUOTE = 0x2019;
