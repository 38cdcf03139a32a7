/**
 * The analysis's own word scan (not exported from the package), one pass over the text for two
 * tokenisations with one vocabulary:
 *
 * - the words of wordsOf (text.ts) — same pattern, same positions — as typed arrays of starts,
 *   ends and vocabulary ids, without a string per word. wordsOf made a Word object, a substring
 *   and often a lower-cased copy for each of a chapter's 20,000 words, and the vocabulary then
 *   hashed every one of those strings: with the garbage they left, about a third of analyzeProse's
 *   time. Here an ASCII word is hashed while it is scanned and looked up in an open-addressing
 *   table by comparing its characters in place; a string is made once per distinct word.
 * - the runs of \w characters ([A-Za-z0-9_]): the words as a regular expression's \b sees them
 *   (write-good's checks and the tense and person markers are such expressions). A word of ASCII
 *   letters and digits with no underscore beside it is its own run — most words of English prose —
 *   so only the other words' surroundings are scanned again for their runs. Runs made only of
 *   underscores are left out: they match none of those expressions (and stand between any two runs
 *   around them, so no expression can match across them either).
 *
 * tokens.test.ts holds both to their regular expressions (WORD_PATTERN and /\w+/g); text.ts wordsOf is this scan as objects.
 */
import { emptyArray } from './arrays.ts';
import { APOSTROPHE, ASCII_CLASS, LETTER, RIGHT_SINGLE_QUOTE, classOf } from './chars.ts';

/** Spans of the text with vocabulary ids, in text order, in growable typed arrays. */
export class SpanList {
  count = 0;
  starts: Int32Array;
  ends: Int32Array;
  /** Per span: the id of its lower case (`keys[id]` of the scan). */
  ids: Int32Array;

  constructor(capacity: number) {
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.ids = new Int32Array(capacity);
  }

  push(start: number, end: number, id: number): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
      this.ids = grown(this.ids);
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.ids[this.count] = id;
    this.count++;
  }
}

export interface TextTokens {
  words: SpanList;
  /** The \w runs, except those made only of underscores. */
  runs: SpanList;
  /** The distinct words and runs in lower case (String.prototype.toLowerCase), by id. */
  keys: string[];
}

/**
 * FNV-1a, its state kept to 30 bits: a small integer (Smi) in V8 at every step. A full 32-bit state
 * left the scan's optimised code to be thrown away ("not a Smi") in the first calls of the bench.
 */
const FNV_OFFSET = 0x811c9dc5 & 0x3fffffff;
const FNV_PRIME = 16777619;
const step = (h: number, unit: number) => Math.imul(h ^ unit, FNV_PRIME) & 0x3fffffff;

/** The hash of a string's UTF-16 units: the same the scan computes for an ASCII word's lower case. */
function hashOf(key: string): number {
  let h = FNV_OFFSET;
  for (let k = 0; k < key.length; k++) h = step(h, key.charCodeAt(k));
  return h;
}

/** Distinct lower-case words by id, found by hash and compared in place. */
class Vocabulary {
  /** emptyArray, and the hashes a typed array: changes of a fresh array's kind threw the optimised scan (its longest compile) away. */
  keys: string[] = emptyArray();
  private hashes = new Int32Array(512);
  /** Open addressing: id + 1 per slot, 0 when empty. */
  private slots = new Int32Array(1024);
  private mask = 1023;

  /** The id of the ASCII word text[start, end), whose lower case hashes to `h`. */
  asciiId(text: string, start: number, end: number, h: number): number {
    const len = end - start;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return this.add(text.slice(start, end).toLowerCase(), h, slot);
      const id = entry - 1;
      if (this.hashes[id] !== h) continue;
      const key = this.keys[id]!;
      if (key.length !== len) continue;
      let k = 0;
      while (k < len) {
        let c = text.charCodeAt(start + k);
        if (c >= 65 && c <= 90) c += 32;
        if (key.charCodeAt(k) !== c) break;
        k++;
      }
      if (k === len) return id;
    }
  }

  /** The id of a lower-case key (words with non-ASCII characters: their lower case may differ in length). */
  keyId(key: string): number {
    const h = hashOf(key);
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return this.add(key, h, slot);
      if (this.hashes[entry - 1] === h && this.keys[entry - 1] === key) return entry - 1;
    }
  }

  private add(key: string, h: number, slot: number): number {
    const id = this.keys.length;
    this.keys.push(key);
    if (id === this.hashes.length) this.hashes = grown(this.hashes);
    this.hashes[id] = h;
    this.slots[slot] = id + 1;
    if (this.keys.length * 2 > this.slots.length) this.grow();
    return id;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.keys.length; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** ASCII word characters of regular expressions: \w is [A-Za-z0-9_], without the u flag with or without i. */
const UNDERSCORE = 0x5f;
const W = Uint8Array.from({ length: 128 }, (_, c) => (ASCII_CLASS[c] !== 0 || c === UNDERSCORE ? 1 : 0));

const isW = (text: string, i: number) => {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  return c < 128 && W[c] === 1;
};

/**
 * Adds the \w runs that start in text[from, to), each to its end (which may lie past `to`), but
 * not runs of underscores only, and answers where it stopped: `to`, or the end of a run that crossed it.
 */
function runsIn(text: string, from: number, to: number, vocabulary: Vocabulary, runs: SpanList): number {
  let i = from;
  while (i < to) {
    if (!isW(text, i)) {
      i++;
      continue;
    }
    const start = i;
    let h = FNV_OFFSET;
    let underscores = true;
    do {
      const c = text.charCodeAt(i);
      if (c !== UNDERSCORE) underscores = false;
      h = step(h, c >= 65 && c <= 90 ? c + 32 : c);
      i++;
    } while (isW(text, i));
    if (!underscores) runs.push(start, i, vocabulary.asciiId(text, start, i, h));
  }
  return i;
}

export function scanWords(text: string): TextTokens {
  const n = text.length;
  const vocabulary = new Vocabulary();
  // Prose averages over five characters a word; the arrays double if not.
  const words = new SpanList((n >> 2) + 16);
  const runs = new SpanList((n >> 2) + 16);
  // Made before the loop, not returned as a literal after it: V8 compiles this function while its
  // first call is still in the loop, and code after the loop with no type feedback yet threw that
  // compiled code away at the end of each of the bench's first calls.
  const tokens: TextTokens = { words, runs, keys: vocabulary.keys };
  /** The runs up to here have been added. */
  let runsTo = 0;
  let i = 0;
  while (i < n) {
    // Code points as String.prototype.codePointAt reads them (a lone surrogate is itself).
    let c = text.charCodeAt(i);
    if (c < 128) {
      if (ASCII_CLASS[c] === 0) {
        i++;
        continue;
      }
    } else {
      const cp = text.codePointAt(i)!;
      if (classOf(cp) === 0) {
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
    }
    const start = i;
    /** All ASCII so far: `h` is the hash of the word's lower case. */
    let ascii = true;
    let h = FNV_OFFSET;
    // Letters and digits…
    while (i < n) {
      c = text.charCodeAt(i);
      if (c < 128) {
        if (ASCII_CLASS[c] === 0) break;
        h = step(h, c >= 65 && c <= 90 ? c + 32 : c);
        i++;
      } else {
        const cp = text.codePointAt(i)!;
        if (classOf(cp) === 0) break;
        ascii = false;
        i += cp > 0xffff ? 2 : 1;
      }
    }
    /** ASCII letters and digits only, so far: the word is one \w run unless an underscore touches it. */
    let plain = ascii;
    // …then, any number of times, an apostrophe followed by letters.
    while (i + 1 < n) {
      const mark = text.charCodeAt(i);
      if (mark !== APOSTROPHE && mark !== RIGHT_SINGLE_QUOTE) break;
      let j = i + 1;
      let h2 = step(h, mark);
      let ascii2: boolean = ascii && mark === APOSTROPHE;
      while (j < n) {
        c = text.charCodeAt(j);
        if (c < 128) {
          if (ASCII_CLASS[c] !== LETTER) break;
          h2 = step(h2, c <= 90 ? c + 32 : c);
          j++;
        } else {
          const cp = text.codePointAt(j)!;
          if (classOf(cp) !== LETTER) break;
          ascii2 = false;
          j += cp > 0xffff ? 2 : 1;
        }
      }
      if (j === i + 1) break;
      h = h2;
      ascii = ascii2;
      plain = false;
      i = j;
    }
    const id = ascii ? vocabulary.asciiId(text, start, i, h) : vocabulary.keyId(text.slice(start, i).toLowerCase());
    words.push(start, i, id);
    if (start >= runsTo) {
      if (plain && (start === 0 || text.charCodeAt(start - 1) !== UNDERSCORE) && (i === n || text.charCodeAt(i) !== UNDERSCORE)) {
        runs.push(start, i, id);
        runsTo = i;
      } else {
        // Back over underscores that lead into the word, then its runs and any run it ends inside.
        let from = start;
        while (from > runsTo && isW(text, from - 1)) from--;
        runsTo = runsIn(text, from, i, vocabulary, runs);
      }
    } else if (i > runsTo) {
      // Its start was in a run already added ("a_b"): only what follows that run remains.
      runsTo = runsIn(text, runsTo, i, vocabulary, runs);
    }
  }
  return tokens;
}
