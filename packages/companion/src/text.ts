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

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

export interface Word extends Span {
  word: string;
  /** The word in lower case, made once: the analysis's passes all compare words by it. */
  key: string;
}

export function wordsOf(text: string, offset = 0): Word[] {
  const out: Word[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const word = m[0];
    out.push({ word, key: word.toLowerCase(), start: offset + m.index, end: offset + m.index + word.length });
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
