/**
 * The analysis's own word scan (not exported from the package): the words of wordsOf (text.ts) —
 * same pattern, same positions — as typed arrays of starts, ends and vocabulary ids, without a
 * string per word. wordsOf made a Word object, a substring and often a lower-cased copy for each
 * of a chapter's 20,000 words, and the vocabulary then hashed every one of those strings: with the
 * garbage they left, about a third of analyzeProse's time. Here an ASCII word is hashed while it
 * is scanned and looked up in an open-addressing table by comparing its characters in place; a
 * string is made once per distinct word. equivalence.test.ts holds the result to wordsOf.
 */
import { APOSTROPHE, ASCII_CLASS, LETTER, RIGHT_SINGLE_QUOTE, classOf } from './chars.ts';

export interface WordTable {
  /** Number of words; the arrays below may be longer. */
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  /** Per word: the id of its lower case (`keys[id]`). */
  ids: Int32Array;
  /** The distinct words by id: in lower case (String.prototype.toLowerCase) from scanWords, as written from scanRuns. */
  keys: string[];
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** FNV-1a of a string's UTF-16 units: the same hash the scan computes for an ASCII word's lower case. */
function hashOf(key: string): number {
  let h = FNV_OFFSET;
  for (let k = 0; k < key.length; k++) h = Math.imul(h ^ key.charCodeAt(k), FNV_PRIME);
  return h;
}

/** Distinct words by id (in lower case when `foldCase`), found by hash and compared in place. */
class Vocabulary {
  keys: string[] = [];
  private hashes: number[] = [];
  /** Open addressing: id + 1 per slot, 0 when empty. */
  private slots = new Int32Array(1024);
  private mask = 1023;

  constructor(private readonly foldCase: boolean) {}

  /** The id of the ASCII word text[start, end), whose key (its lower case when folding) hashes to `h`. */
  asciiId(text: string, start: number, end: number, h: number): number {
    const len = end - start;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return this.add(this.foldCase ? text.slice(start, end).toLowerCase() : text.slice(start, end), h, slot);
      const id = entry - 1;
      if (this.hashes[id] !== h) continue;
      const key = this.keys[id]!;
      if (key.length !== len) continue;
      let k = 0;
      while (k < len) {
        let c = text.charCodeAt(start + k);
        if (this.foldCase && c >= 65 && c <= 90) c += 32;
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
    this.hashes.push(h);
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

export function scanWords(text: string): WordTable {
  const n = text.length;
  const vocabulary = new Vocabulary(true);
  // Prose averages over five characters a word; the arrays double if not.
  let capacity = (n >> 2) + 16;
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let ids = new Int32Array(capacity);
  let count = 0;
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
        h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
        i++;
      } else {
        const cp = text.codePointAt(i)!;
        if (classOf(cp) === 0) break;
        ascii = false;
        i += cp > 0xffff ? 2 : 1;
      }
    }
    // …then, any number of times, an apostrophe followed by letters.
    while (i + 1 < n) {
      const mark = text.charCodeAt(i);
      if (mark !== APOSTROPHE && mark !== RIGHT_SINGLE_QUOTE) break;
      let j = i + 1;
      let h2 = Math.imul(h ^ mark, FNV_PRIME);
      let ascii2: boolean = ascii && mark === APOSTROPHE;
      while (j < n) {
        c = text.charCodeAt(j);
        if (c < 128) {
          if (ASCII_CLASS[c] !== LETTER) break;
          h2 = Math.imul(h2 ^ (c <= 90 ? c + 32 : c), FNV_PRIME);
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
      i = j;
    }
    if (count === capacity) {
      starts = grown(starts);
      ends = grown(ends);
      ids = grown(ids);
      capacity *= 2;
    }
    starts[count] = start;
    ends[count] = i;
    ids[count] = ascii ? vocabulary.asciiId(text, start, i, h) : vocabulary.keyId(text.slice(start, i).toLowerCase());
    count++;
  }
  return { count, starts, ends, ids, keys: vocabulary.keys };
}

/** ASCII word characters of regular expressions: \w is [A-Za-z0-9_], without the u flag with or without i. */
const W = Uint8Array.from({ length: 128 }, (_, c) => (ASCII_CLASS[c] !== 0 || c === 0x5f ? 1 : 0));

/**
 * The text's runs of \w characters: the words as a regular expression's \b sees them (write-good's
 * checks and the tense and person markers are such expressions), with ids of their exact text.
 * Differs from scanWords where words hold apostrophes, non-ASCII letters or underscores.
 */
export function scanRuns(text: string): WordTable {
  const n = text.length;
  const vocabulary = new Vocabulary(false);
  let capacity = (n >> 2) + 16;
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let ids = new Int32Array(capacity);
  let count = 0;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c >= 128 || W[c] === 0) {
      i++;
      continue;
    }
    const start = i;
    let h = FNV_OFFSET;
    do {
      h = Math.imul(h ^ c, FNV_PRIME);
      c = ++i < n ? text.charCodeAt(i) : 128;
    } while (c < 128 && W[c] === 1);
    if (count === capacity) {
      starts = grown(starts);
      ends = grown(ends);
      ids = grown(ids);
      capacity *= 2;
    }
    starts[count] = start;
    ends[count] = i;
    ids[count] = vocabulary.asciiId(text, start, i, h);
    count++;
  }
  return { count, starts, ends, ids, keys: vocabulary.keys };
}
