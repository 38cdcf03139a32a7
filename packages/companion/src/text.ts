import { emptyArray } from './arrays.ts';
import { scanWords } from './tokens.ts';

/**
 * Splitting prose into sentences, paragraphs and words with their positions (UTF-16 offsets into
 * the text, as the editor and `<mark>` highlights use them). Sentences come from one regular
 * expression pass (Intl.Segmenter took 20× the editor's word count by itself: README.md).
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
 * "rock'n'roll") — the pattern WORD_PATTERN, scanned by hand (tokens.ts): the regex's exec per word
 * was a fifth of the analysis of a long chapter (a property test holds them equal).
 */
export const WORD_PATTERN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

export interface Word extends Span {
  word: string;
  /** The word in lower case, made once: the analysis's passes all compare words by it. */
  key: string;
}

export function wordsOf(text: string, offset = 0): Word[] {
  // The analysis's one scan (tokens.ts), as objects: one implementation of the pattern.
  const { words, keys } = scanWords(text);
  const out: Word[] = new Array<Word>(words.count);
  for (let w = 0; w < words.count; w++) {
    const start = words.starts[w]!;
    const end = words.ends[w]!;
    out[w] = { word: text.slice(start, end), key: keys[words.ids[w]!]!, start: offset + start, end: offset + end };
  }
  return out;
}

/**
 * Ranges of text inside double quotation marks (straight or curly). An unclosed quote ends with its
 * paragraph, as fiction leaves a speech open across paragraphs.
 */
const NEWLINE = 0x0a;
const DOUBLE_QUOTE = 0x22;
const LEFT_DOUBLE_QUOTE = 0x201c;
const RIGHT_DOUBLE_QUOTE = 0x201d;

export function dialogueRanges(text: string): Span[] {
  const ranges = emptyArray<Span>();
  const open = closedQuotes(text, ranges);
  if (open >= 0) ranges.push({ start: open, end: text.length });
  return ranges;
}

/**
 * Adds the ranges closed by a quotation mark or a line break and answers where a quote still open
 * at the end began (or -1). The scan ends the function: V8 compiles a long loop while it runs, and
 * code after it that had not run yet (no type feedback) threw that code away in each early call.
 */
function closedQuotes(text: string, ranges: Span[]): number {
  let open = -1;
  // Character codes, not text[i]: a one-character string per character was most of this pass.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE && open >= 0) {
      ranges.push({ start: open, end: i });
      open = -1;
    } else if (c === LEFT_DOUBLE_QUOTE || (c === DOUBLE_QUOTE && open < 0)) {
      if (open < 0) open = i;
    } else if ((c === RIGHT_DOUBLE_QUOTE || c === DOUBLE_QUOTE) && open >= 0) {
      ranges.push({ start: open, end: i + 1 });
      open = -1;
    }
  }
  return open;
}

/** A sentence runs to its end mark (with any closing quotes or brackets), or to the end of its line. */
const SENTENCE = /[^\s][^\n]*?(?:[.!?…]+['"’”)\]]*(?=\s|$)|(?=\n)|$)/g;
/** "Mr. Smith" does not end a sentence. */
const ABBREVIATION = /\b(?:Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|Prof|Capt|Gen|Lt|Col|Sgt|vs|etc|e\.g|i\.e)\.$/;

/**
 * Counts the words of spans that come in order along the text, from its words' starts in one
 * pass: no word crosses a sentence's or a paragraph's edge (both end at whitespace or the text's
 * end), so a span's words are those that start inside it — the count a word scan of the span's
 * own text gives, without scanning the text again for every sentence and paragraph. (A class, not
 * a closure: a new closure per call was a new call target to V8's optimised callers every time.)
 */
class SpanWordCounter {
  private i = 0;

  constructor(
    private readonly starts: ArrayLike<number>,
    private readonly words: number,
  ) {}

  count(start: number, end: number): number {
    const { starts, words } = this;
    let i = this.i;
    while (i < words && starts[i]! < start) i++;
    let n = 0;
    while (i < words && starts[i]! < end) {
      i++;
      n++;
    }
    this.i = i;
    return n;
  }
}

const startsOf = (words: readonly Span[]) => Int32Array.from(words, (w) => w.start);

export function sentencesOf(text: string, dialogue: readonly Span[] = dialogueRanges(text), words: readonly Span[] = wordsOf(text)): Sentence[] {
  return sentencesFrom(text, dialogue, startsOf(words), words.length);
}

/** sentencesOf from the starts of the text's first `words` words (the analysis's word table: tokens.ts). */
export function sentencesFrom(text: string, dialogue: readonly Span[], starts: ArrayLike<number>, words: number): Sentence[] {
  const counter = new SpanWordCounter(starts, words);
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
    const count = counter.count(start, end);
    if (count === 0) continue;
    const sentence = text.slice(start, end);
    while (d < dialogue.length && dialogue[d]!.end < start) d++;
    const inDialogue = d < dialogue.length && dialogue[d]!.start <= start + 1 && dialogue[d]!.end >= end - 1;
    out.push({ text: sentence, start, end, words: count, inDialogue });
  }
  return out;
}

export function paragraphsOf(text: string, words: readonly Span[] = wordsOf(text)): Paragraph[] {
  return paragraphsFrom(text, startsOf(words), words.length);
}

/** paragraphsOf from the starts of the text's first `words` words: the runs of the text without a line break. */
export function paragraphsFrom(text: string, starts: ArrayLike<number>, words: number): Paragraph[] {
  const counter = new SpanWordCounter(starts, words);
  const out: Paragraph[] = [];
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      const count = counter.count(start, end);
      if (count > 0) out.push({ start, end, words: count });
    }
    start = end + 1;
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
