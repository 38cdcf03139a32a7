/**
 * Words added and removed between two runs of lines, compared as bags of words: what the second has
 * more of was added, what it has fewer of was removed. Linear in the text (a word-level Myers diff
 * of a replaced 200-word paragraph cost ~1 ms per save on the server), and words merely moved are
 * not writing. counting.ts wordDelta calls it on the changed runs of lines only.
 *
 * The balance is counted in one open-addressing hash table keyed by the words' hashes (rules.ts
 * forEachWord makes them as it scans) and their characters where they lie in the lines: no
 * string is made per word and no Map entry is allocated. Exact: a slot's word is compared character
 * by character, never trusted by its hash. The server runs it on every save; on two replaced
 * paragraphs (~330 words) it takes ~12 µs where a Map of the sliced words took ~16 µs and left
 * their garbage behind.
 */
import { mayHoldMarkup, visibleText } from '../markup/parse.ts';
import { forEachWord } from '../rules.ts';

/** Tables kept between calls (a few KB), grown when a larger edit needs them. */
let slots = new Int32Array(1024);
let hashes = new Int32Array(512);
let starts = new Int32Array(512);
let ends = new Int32Array(512);
let balance = new Int32Array(512);
/** The line each entry's word lies in (released at the end of every call). */
const lines: string[] = [];
let size = 0;
/** The slots this call uses (a power of two, at least twice its words): slots[0..mask]. */
let mask = 0;

/** Tables larger than this are given back once a smaller edit comes (a pasted book grew them). */
const KEPT_CAPACITY = 1 << 14;

function reset(capacity: number): void {
  let slotCount = 64;
  while (slotCount < capacity * 2) slotCount *= 2;
  if (slotCount > slots.length || (slots.length > 2 * KEPT_CAPACITY && slotCount <= 2 * KEPT_CAPACITY)) slots = new Int32Array(Math.max(slotCount, 1024));
  else slots.fill(0, 0, slotCount);
  mask = slotCount - 1;
  if (hashes.length < capacity || (hashes.length > KEPT_CAPACITY && capacity <= KEPT_CAPACITY)) {
    const length = Math.max(capacity, 512);
    hashes = new Int32Array(length);
    starts = new Int32Array(length);
    ends = new Int32Array(length);
    balance = new Int32Array(length);
  }
  size = 0;
}

function sameWord(entry: number, line: string, start: number, end: number): boolean {
  const entryStart = starts[entry]!;
  if (ends[entry]! - entryStart !== end - start) return false;
  const other = lines[entry]!;
  for (let k = 0; k < end - start; k++) if (other.charCodeAt(entryStart + k) !== line.charCodeAt(start + k)) return false;
  return true;
}

function count(line: string, start: number, end: number, hash: number, delta: number): void {
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const held = slots[slot]!;
    if (held === 0) {
      slots[slot] = size + 1;
      hashes[size] = hash;
      starts[size] = start;
      ends[size] = end;
      balance[size] = delta;
      lines[size] = line;
      size++;
      return;
    }
    const entry = held - 1;
    if (hashes[entry] === hash && sameWord(entry, line, start, end)) {
      balance[entry]! += delta;
      return;
    }
  }
}

/** Words `after` has more of (added) and fewer of (removed) than `before`, on the word rule (rules.ts). */
export function wordBalance(markedBefore: readonly string[], markedAfter: readonly string[]): { added: number; removed: number } {
  // Words are the visible words (docs/decisions/0009-chapter-markup.md): italicising a word or
  // splitting one with a marker (`un*believ*able`) is neither writing nor removing it, and the
  // balance stays exactly the change of chapterWordCount.
  const before = markedBefore.map(visibleLine);
  const after = markedAfter.map(visibleLine);
  let characters = 0;
  for (const line of before) characters += line.length;
  for (const line of after) characters += line.length;
  // A word takes at least two characters with its separator (one more for the last of a line).
  reset((characters >> 1) + before.length + after.length + 1);
  for (const line of before) forEachWord(line, (start, end, hash) => count(line, start, end, hash, -1));
  for (const line of after) forEachWord(line, (start, end, hash) => count(line, start, end, hash, 1));
  let added = 0;
  let removed = 0;
  for (let entry = 0; entry < size; entry++) {
    const n = balance[entry]!;
    if (n > 0) added += n;
    else removed -= n;
  }
  lines.length = 0;
  return { added, removed };
}

function visibleLine(line: string): string {
  return mayHoldMarkup(line) ? visibleText(line) : line;
}
