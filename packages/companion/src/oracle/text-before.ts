/**
 * TEST ORACLE, not shipped: analyzeProse as it was before the speed work of issue 11 (commit 852760b),
 * kept unchanged so that equivalence.test.ts can hold the faster code to exactly the same output
 * on random texts. Do not optimise or fix this copy; change it only with a deliberate output change.
 */
/**
 * Splitting prose into sentences, paragraphs and words with their positions (UTF-16 offsets into
 * the text, as the editor and `<mark>` highlights use them). Sentences come from Intl.Segmenter
 * (the platform's Unicode sentence rules, in Node and every browser), not a hand-made regex.
 */

export interface Span {
  start: number;
  end: number;
}

export interface Sentence extends Span {
  text: string;
  words: number;
  /** True when the whole sentence sits inside quotation marks (a line of dialogue). */
  inDialogue: boolean;
}

export interface Paragraph extends Span {
  words: number;
}

/**
 * The words of prose: runs of letters and digits, joined through apostrophes to letters ("don't",
 * "rock'n'roll") — the pattern WORD_PATTERN. Scanned by hand with a table for ASCII: the regex's
 * exec per word was a fifth of the analysis of a long chapter (a property test holds them equal).
 */
export const WORD_PATTERN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

export interface Word extends Span {
  word: string;
  /** The word in lower case, made once: the analysis's passes all compare words by it. */
  key: string;
}

const LETTER = 1;
const DIGIT = 2;
/** ASCII: 1 letter, 2 digit, 0 neither. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? LETTER : c >= 48 && c <= 57 ? DIGIT : 0,
);
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
/** Classes of the non-ASCII code points met so far (prose uses few). */
const otherClasses = new Map<number, number>();

function classOf(codePoint: number): number {
  if (codePoint < 128) return ASCII_CLASS[codePoint]!;
  let c = otherClasses.get(codePoint);
  if (c === undefined) {
    const char = String.fromCodePoint(codePoint);
    c = IS_LETTER.test(char) ? LETTER : IS_NUMBER.test(char) ? DIGIT : 0;
    if (otherClasses.size < 10_000) otherClasses.set(codePoint, c);
  }
  return c;
}

const APOSTROPHE = 0x27;
const RIGHT_SINGLE_QUOTE = 0x2019;

export function wordsOf(text: string, offset = 0): Word[] {
  const out: Word[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let cp = text.codePointAt(i)!;
    if (classOf(cp) === 0) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    /** Only lower-case ASCII so far: the word is its own key (toLowerCase makes a new string every time). */
    let lower = true;
    // Letters and digits…
    while (i < n && classOf((cp = text.codePointAt(i)!)) !== 0) {
      if (cp >= 65 && (cp <= 90 || cp >= 128)) lower = false;
      i += cp > 0xffff ? 2 : 1;
    }
    // …then, any number of times, an apostrophe followed by letters.
    while (i + 1 < n) {
      const mark = text.charCodeAt(i);
      if (mark !== APOSTROPHE && mark !== RIGHT_SINGLE_QUOTE) break;
      let j = i + 1;
      while (j < n && classOf((cp = text.codePointAt(j)!)) === LETTER) {
        if (cp >= 65 && (cp <= 90 || cp >= 128)) lower = false;
        j += cp > 0xffff ? 2 : 1;
      }
      if (j === i + 1) break;
      if (mark !== APOSTROPHE) lower = false;
      i = j;
    }
    const word = text.slice(start, i);
    out.push({ word, key: lower ? word : word.toLowerCase(), start: offset + start, end: offset + i });
  }
  return out;
}

/**
 * Ranges of text inside double quotation marks (straight or curly). An unclosed quote ends with its
 * paragraph, as fiction leaves a speech open across paragraphs.
 */
export function dialogueRanges(text: string): Span[] {
  const ranges: Span[] = [];
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' && open >= 0) {
      ranges.push({ start: open, end: i });
      open = -1;
    } else if (c === '“' || (c === '"' && open < 0)) {
      if (open < 0) open = i;
    } else if ((c === '”' || c === '"') && open >= 0) {
      ranges.push({ start: open, end: i + 1 });
      open = -1;
    }
  }
  if (open >= 0) ranges.push({ start: open, end: text.length });
  return ranges;
}

/** A sentence runs to its end mark (with any closing quotes or brackets), or to the end of its line. */
const SENTENCE = /[^\s][^\n]*?(?:[.!?…]+['"’”)\]]*(?=\s|$)|(?=\n)|$)/g;
/** "Mr. Smith" does not end a sentence. */
const ABBREVIATION = /\b(?:Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|Prof|Capt|Gen|Lt|Col|Sgt|vs|etc|e\.g|i\.e)\.$/;

/**
 * Counts the words of spans that come in order along the text, from its words (wordsOf) in one
 * pass: no word crosses a sentence's or a paragraph's edge (both end at whitespace or the text's
 * end), so a span's words are those that start inside it — the count a word scan of the span's
 * own text gives, without scanning the text again for every sentence and paragraph.
 */
function spanWordCounter(words: readonly Span[]): (start: number, end: number) => number {
  let i = 0;
  return (start, end) => {
    while (i < words.length && words[i]!.start < start) i++;
    let n = 0;
    while (i < words.length && words[i]!.start < end) {
      i++;
      n++;
    }
    return n;
  };
}

export function sentencesOf(text: string, dialogue: readonly Span[] = dialogueRanges(text), words: readonly Span[] = wordsOf(text)): Sentence[] {
  const countIn = spanWordCounter(words);
  const out: Sentence[] = [];
  let d = 0;
  let pendingStart = -1;
  SENTENCE.lastIndex = 0;
  for (let m = SENTENCE.exec(text); m !== null; m = SENTENCE.exec(text)) {
    if (m[0] === '') {
      SENTENCE.lastIndex++;
      continue;
    }
    const start = pendingStart >= 0 ? pendingStart : m.index;
    const end = m.index + m[0].length;
    if (ABBREVIATION.test(m[0]) && text[end] !== '\n' && end < text.length) {
      pendingStart = start;
      continue;
    }
    pendingStart = -1;
    const count = countIn(start, end);
    if (count === 0) continue;
    const sentence = text.slice(start, end);
    while (d < dialogue.length && dialogue[d]!.end < start) d++;
    const inDialogue = d < dialogue.length && dialogue[d]!.start <= start + 1 && dialogue[d]!.end >= end - 1;
    out.push({ text: sentence, start, end, words: count, inDialogue });
  }
  return out;
}

export function paragraphsOf(text: string, words: readonly Span[] = wordsOf(text)): Paragraph[] {
  const countIn = spanWordCounter(words);
  const out: Paragraph[] = [];
  const re = /[^\n]+/g;
  for (const m of text.matchAll(re)) {
    const count = countIn(m.index, m.index + m[0].length);
    if (count > 0) out.push({ start: m.index, end: m.index + m[0].length, words: count });
  }
  return out;
}

/** Whether `pos` lies inside one of the sorted, non-overlapping `ranges`. */
export function insideAny(ranges: readonly Span[], pos: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (pos < r.start) hi = mid - 1;
    else if (pos >= r.end) lo = mid + 1;
    else return true;
  }
  return false;
}
