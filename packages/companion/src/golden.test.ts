/**
 * Golden outputs of analyzeProse: the findings (kinds, positions, messages), scores, stats and the
 * `analysis` text pinned for hand-made texts (in full), for seeded random texts full of the cases
 * the scanners must get right (hashes), and for the companion bench's 20,000-word chapter (issue
 * 11). Speed work on the analysis must leave every one of them unchanged; a deliberate change of
 * output updates the snapshot (`vitest run -u`) and says so in its commit.
 */
import { createHash } from 'node:crypto';
import { countWordsEditor } from '@chronicler/schema';
import { describe, expect, it } from 'vitest';
import { FINDING_KINDS, analyzeProse } from './analysis.ts';

const sha = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** mulberry32, as bench/lib/prose.ts. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T,>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// A copy of bench/lib/prose.ts's generator (chapterText), so that the bench's chapter is pinned here
// even if the bench's generator changes; the text itself is pinned by its hash below.
const BENCH_WORDS = (
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
const BENCH_NAMES = ['Mira', 'Talon', 'Eshe', 'Corvin', 'Ilse', 'Bram', 'Oona', 'Kestrel', 'Vance', 'Liora'];

function benchSentence(random: () => number, length: number): string {
  const words: string[] = [];
  for (let i = 0; i < length; i++) {
    let word = random() < 0.06 ? pick(random, BENCH_NAMES) : pick(random, BENCH_WORDS);
    if (i === 0) word = word[0]!.toUpperCase() + word.slice(1);
    if (i < length - 1 && random() < 0.08) word += ',';
    words.push(word);
  }
  const end = pick(random, ['.', '.', '.', '.', '?', '!']);
  const text = words.join(' ') + end;
  return random() < 0.15 ? `“${text}”` : text;
}

function benchChapter(seed: number, words: number): string {
  const random = seededRandom(seed);
  const paragraphs: string[] = [];
  let left = words;
  while (left > 0) {
    const sentences: string[] = [];
    const count = 3 + Math.floor(random() * 5);
    for (let s = 0; s < count && left > 0; s++) {
      const length = Math.min(left, 5 + Math.floor(random() * 16));
      sentences.push(benchSentence(random, length));
      left -= length;
    }
    paragraphs.push(sentences.join(' '));
  }
  return paragraphs.join('\n\n');
}

/** Pieces that exercise every scanner: cases, apostrophes, Unicode, quotes, end marks, markers. */
const TRICKY = [
  'the', 'The', 'THE', 'lantern', 'Lantern', 'lanterns', 'harbour', 'road', 'keeper', 'sea', 'stone',
  'was', 'Was', 'WAS', 'were', 'is', 'Is', 'are', 'am', 'be', 'been', 'being', 'had', 'has', 'did', 'does',
  "wasn't", 'wasn’t', "didn't", "isn't", "HADN'T", "doesn't", "aren't", "hasn't", "weren't", "don't", "it's", 'rock’n’roll',
  'opened', 'burned', 'warned', 'built', 'taken', 'Taken', 'written', 'indeed', 'Indeed', 'red', 'ed', 'seed', 'bed',
  'slowly', 'Slowly', 'really', 'REALLY', 'extremely', 'just', 'Just', 'maybe', 'stuff', 'things', 'many', 'only', 'early', 'ugly',
  'saw', 'Saw', 'heard', 'felt', 'noticed', 'realised', 'seemed', 'watched', 'thought', 'looked', 'knew',
  'I', 'i', 'me', 'Me', 'my', 'My', 'mine', 'myself', 'he', 'He', 'she', 'She', 'him', 'her', 'his', 'hers', 'himself', 'herself',
  'Mr.', 'Mrs.', 'Dr.', 'e.g.', 'i.e.', 'etc.', 'vs.', 'St.',
  '42', '1999', '3rd', 'a_b', '_was', 'was_', 'naïve', 'naïvely', 'café', 'ÉTÉ', 'Ωmega', 'straße', 'İstanbul', 'ǅemal', '٣', 'Ⅻ', '😀', 'x😀y',
  'passively', 'unbelievably', 'Corvin', 'Mira',
];
const GLUE = [' ', ' ', ' ', ' ', ' ', '  ', '\t', '\u00a0', ', ', '; ', ' — ', '-', '. ', '! ', '? ', '… ', '?! ', '.\n', '\n', '\n\n', ' "', '" ', '“', '” ', '”', "'", '’', '(', ') ', '.) ', '."\n'];

/** Few sentence ends and no line breaks: long sentences and long paragraphs. */
const RUN_ON_GLUE = [' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ', ', ' "', '" ', '“', '” ', '’', '\t', '. ', '!\n'];

function trickyText(seed: number, pieces: number, glue: readonly string[] = GLUE): string {
  const random = seededRandom(seed);
  let out = '';
  for (let i = 0; i < pieces; i++) out += pick(random, TRICKY) + pick(random, glue);
  return out;
}

/** Plausible narration with drift, passives and repeats, so that drift and summary branches fire. */
function narrationText(seed: number, sentences: number, person: 'I' | 'She', tense: 'was' | 'is'): string {
  const random = seededRandom(seed);
  const verbs = tense === 'was' ? ['was', 'had', 'did not', 'were'] : ['is', 'has', 'does not', 'are'];
  const others = tense === 'was' ? ['is', 'has'] : ['was', 'had'];
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) {
    const verb = random() < 0.1 ? pick(random, others) : pick(random, verbs);
    const who = random() < 0.08 ? (person === 'I' ? 'She' : 'I') : person;
    const tail = pick(random, ['opened by the keeper', 'tired of the road', 'slowly turning the lantern', 'a lantern and a map', 'warned about the lantern', 'really certain']);
    let s = `${who} ${verb} ${tail}${pick(random, ['.', '.', '!', '?', '…'])}`;
    if (random() < 0.2) s = `“${s}” ${pick(random, ['he said.', 'I said.', 'she asked.'])}`;
    out.push(s);
  }
  return out.map((s, i) => (i % 5 === 4 ? `${s}\n` : `${s} `)).join('');
}

const HAND_TEXTS: Record<string, string> = {
  empty: '',
  flesch: 'The cat sat on the mat. The dog ran fast.',
  passive: 'The door was opened by the guard. She had been warned twice. The village was burned to the ground. The guard opened the door.',
  adverbs: 'She walked slowly to the door. "Really, I am fine," he said.',
  filter: 'She saw the ship leave. "I saw it too," he said.',
  repeat: 'The lantern swung in the wind. The lantern went out.',
  dialogue: '"Come here now," she said. He came.',
  longSentence: `Short one. He ran ${'and ran '.repeat(20)}until dawn. Another short one.`,
  longParagraph: `${'Word after word went by. '.repeat(40).trim()}\nShort.`,
  tense: 'She was tired. The road was long. He had a map. They were late. The inn is closed now. It was dark.',
  pov: 'He walked in. She turned to him. He sat down. She poured his tea. "I know," she said. I could not believe it.',
  summary: 'The door was opened by the guard. She walked slowly. She saw the sea.',
  abbreviations: 'Mr. Smith met Dr. Jones at St. Paul. They talked, e.g. about the weather, etc. Then they left.\nMrs. Hale stayed.',
  unclosed: '“I will go,\nshe said, and went. “And then?” He was silent. "Straight quotes" were used. "Unclosed to the end',
  unicode: 'Naïve café owners — Ωmega and İstanbul — sold 42 straße maps. Don’t stop; rock’n’roll isn’t dead. x😀y was here.',
  underscores: '_was a_b was_ opened. The file_name is being_built now. He was\u00a0opened. She was\n\nburned.',
};

describe('golden: analyzeProse output is pinned', () => {
  for (const [name, text] of Object.entries(HAND_TEXTS)) {
    it(`hand text: ${name}`, () => {
      expect(analyzeProse(text)).toMatchSnapshot();
    });
  }

  it('seeded tricky and narration texts (hashes of the whole output)', () => {
    const hashes: Record<string, string> = {};
    const seen = new Set<string>();
    const pin = (name: string, text: string) => {
      const result = analyzeProse(text);
      for (const f of result.findings) seen.add(f.kind);
      seen.add(`tense ${result.stats.tense}`).add(`pov ${result.stats.pointOfView}`);
      hashes[name] = `${sha(text)} → ${sha(result)}`;
    };
    for (let seed = 1; seed <= 40; seed++) pin(`tricky ${seed}`, trickyText(seed, 20 + seed * 25));
    for (let seed = 1; seed <= 8; seed++) pin(`run-on ${seed}`, trickyText(100 + seed, 100 + seed * 60, RUN_ON_GLUE));
    for (let seed = 1; seed <= 8; seed++) pin(`narration ${seed}`, narrationText(seed, 30 + seed * 20, seed % 2 ? 'She' : 'I', seed % 4 < 2 ? 'was' : 'is'));
    expect(hashes).toMatchSnapshot();
    // The seeded texts reach every kind of finding and every verdict on tense and person.
    expect([...seen].sort()).toEqual(
      [...FINDING_KINDS, 'tense past', 'tense present', 'tense mixed', 'tense unknown', 'pov first', 'pov third', 'pov mixed', 'pov unknown'].sort(),
    );
  });

  it("the companion bench's 20,000-word chapter (and the server bench's 1,000-word one)", () => {
    for (const [seed, words] of [[11, 20_000], [7, 1_000]] as const) {
      const text = benchChapter(seed, words);
      expect(countWordsEditor(text)).toBe(words);
      const result = analyzeProse(text);
      expect({
        text: sha(text),
        analysis: result.analysis,
        stats: result.stats,
        counts: result.counts,
        longestSentences: result.longestSentences,
        findings: result.findings.length,
        firstFindings: result.findings.slice(0, 5),
        lastFindings: result.findings.slice(-5),
        allFindings: sha(result.findings),
        whole: sha(result),
      }).toMatchSnapshot(`chapter ${seed} of ${words} words`);
    }
  });
});
