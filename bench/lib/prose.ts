/**
 * Deterministic prose-like chapter text: sentences of varied length, paragraphs, dialogue, names.
 * Realistic enough that JSON escaping, word counting and paragraph merging see what real chapters
 * give them; deterministic so every run measures the same bytes.
 */
import { countWords } from '@chronicler/schema';

/** mulberry32: small, fast, good enough to pick words. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// No apostrophes or hyphens: the editor's word count splits on punctuation, and the generator
// promises an exact count.
const WORDS = (
  'the a an and but or of to in on at by with from into over under through across beyond ' +
  'she he they we it her his their our its was were had would could might must said asked ' +
  'whispered turned walked ran looked saw heard felt knew thought remembered forgot carried held ' +
  'opened closed found lost waited watched followed left reached crossed climbed fell rose ' +
  'light dark cold warm old young quiet loud slow quick bright pale heavy small long broken ' +
  'silver iron golden ancient hidden distant narrow wide empty bitter gentle strange ' +
  'door window road river bridge tower city forest mountain valley harbour ship sword letter ' +
  'map lantern fire rain wind snow stone glass blood shadow voice hand face eyes heart night ' +
  'morning evening winter summer year moment memory promise secret question answer story ' +
  'king queen captain soldier stranger mother father brother sister friend enemy child ' +
  'never always again still only almost perhaps already slowly softly finally suddenly ' +
  'not no yes there here then when where while because before after until since as if'
).split(' ');
const NAMES = ['Mira', 'Talon', 'Eshe', 'Corvin', 'Ilse', 'Bram', 'Oona', 'Kestrel', 'Vance', 'Liora'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function sentence(random: () => number, length: number): string {
  const words: string[] = [];
  for (let i = 0; i < length; i++) {
    let word = random() < 0.06 ? pick(random, NAMES) : pick(random, WORDS);
    if (i === 0) word = word[0]!.toUpperCase() + word.slice(1);
    if (i < length - 1 && random() < 0.08) word += ',';
    words.push(word);
  }
  const end = pick(random, ['.', '.', '.', '.', '?', '!']);
  const text = words.join(' ') + end;
  return random() < 0.15 ? `“${text}”` : text;
}

/** Paragraphs totalling exactly `words` words by the editor's count. */
export function proseParagraphs(random: () => number, words: number): string[] {
  const paragraphs: string[] = [];
  let left = words;
  while (left > 0) {
    const sentences: string[] = [];
    const count = 3 + Math.floor(random() * 5);
    for (let s = 0; s < count && left > 0; s++) {
      const length = Math.min(left, 5 + Math.floor(random() * 16));
      sentences.push(sentence(random, length));
      left -= length;
    }
    paragraphs.push(sentences.join(' '));
  }
  return paragraphs;
}

/** A chapter body of exactly `words` words; the same seed always gives the same text. */
export function chapterText(seed: number, words: number): string {
  const text = proseParagraphs(seededRandom(seed), words).join('\n\n');
  const counted = countWords(text);
  if (counted !== words) throw new Error(`prose generator made ${counted} words, not ${words}`);
  return text;
}

/**
 * The same chapter with emphasis throughout, as an author writes it (docs/decisions/0009-chapter-markup.md):
 * an italic phrase of three words in every paragraph and a bold word in every third. Markers are
 * not words, so the word count is the text's.
 */
export function withEmphasis(text: string): string {
  return text
    .split('\n\n')
    .map((paragraph, i) => {
      const words = paragraph.split(' ');
      if (words.length < 12) return paragraph;
      words[3] = `*${words[3]}`;
      words[5] = `${words[5]}*`;
      if (i % 3 === 0) words[9] = `**${words[9]}**`;
      return words.join(' ');
    })
    .join('\n\n');
}
