/**
 * Golden outputs of analyzeProse: the findings (kinds, positions, messages), scores, stats and the
 * `analysis` text pinned for hand-made texts (in full), for seeded random texts full of the cases
 * the scanners must get right (hashes), and for the companion bench's 20,000-word chapter (issue
 * 11). Speed work on the analysis must leave every one of them unchanged; a deliberate change of
 * output updates the snapshot (`vitest run -u`) and says so in its commit.
 */
import { createHash } from 'node:crypto';
import { countWords } from '@chronicler/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FINDING_KINDS, analyzeProse } from './analysis.ts';

const sha = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** The one value fast-check draws from `arbitrary` with `seed`: the same text on every run. */
const drawn = <T,>(arbitrary: fc.Arbitrary<T>, seed: number): T => fc.sample(arbitrary, { seed, numRuns: 1 })[0]!;

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

/** `pieces` tricky pieces, each followed by a piece of glue. */
function trickyText(seed: number, pieces: number, glue: readonly string[] = GLUE): string {
  const parts = fc.array(fc.tuple(fc.constantFrom(...TRICKY), fc.constantFrom(...glue)), { minLength: pieces, maxLength: pieces });
  return drawn(parts, seed)
    .map(([piece, after]) => piece + after)
    .join('');
}

/** Plausible narration with drift, passives and repeats, so that drift and summary branches fire. */
function narrationText(seed: number, sentences: number, person: 'I' | 'She', tense: 'was' | 'is'): string {
  const verbs = tense === 'was' ? ['was', 'had', 'did not', 'were'] : ['is', 'has', 'does not', 'are'];
  const others = tense === 'was' ? ['is', 'has'] : ['was', 'had'];
  const sentence = fc
    .record({
      verb: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...verbs) }, { weight: 1, arbitrary: fc.constantFrom(...others) }),
      who: fc.oneof({ weight: 23, arbitrary: fc.constant(person) }, { weight: 2, arbitrary: fc.constant(person === 'I' ? 'She' : 'I') }),
      tail: fc.constantFrom('opened by the keeper', 'tired of the road', 'slowly turning the lantern', 'a lantern and a map', 'warned about the lantern', 'really certain'),
      end: fc.constantFrom('.', '.', '!', '?', '…'),
      speech: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('he said.', 'I said.', 'she asked.') }),
    })
    .map(({ verb, who, tail, end, speech }) => (speech ? `“${who} ${verb} ${tail}${end}” ${speech}` : `${who} ${verb} ${tail}${end}`));
  return drawn(fc.array(sentence, { minLength: sentences, maxLength: sentences }), seed)
    .map((s, i) => (i % 5 === 4 ? `${s}\n` : `${s} `))
    .join('');
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
    const analysed = (text: string) => {
      const result = analyzeProse(text);
      for (const f of result.findings) seen.add(f.kind);
      seen.add(`tense ${result.stats.tense}`).add(`pov ${result.stats.pointOfView}`);
      return result;
    };
    const pin = (name: string, text: string) => {
      hashes[name] = `${sha(text)} → ${sha(analysed(text))}`;
    };
    for (let seed = 1; seed <= 40; seed++) pin(`tricky ${seed}`, trickyText(seed, 20 + seed * 25));
    for (let seed = 1; seed <= 8; seed++) pin(`run-on ${seed}`, trickyText(100 + seed, 100 + seed * 60, RUN_ON_GLUE));
    for (let seed = 1; seed <= 8; seed++) pin(`narration ${seed}`, narrationText(seed, 30 + seed * 20, seed % 2 ? 'She' : 'I', seed % 4 < 2 ? 'was' : 'is'));
    expect(hashes).toMatchSnapshot();
    // With the hand texts, the pinned texts reach every kind of finding and every verdict on tense and person.
    for (const text of Object.values(HAND_TEXTS)) analysed(text);
    expect([...seen].sort()).toEqual(
      [...FINDING_KINDS, 'tense past', 'tense present', 'tense mixed', 'tense unknown', 'pov first', 'pov third', 'pov mixed', 'pov unknown'].sort(),
    );
  });

  it('a chapter of ~20,000 words (where each kind of finding reaches its cap)', () => {
    const text = Array.from({ length: 8 }, (_, i) => `${narrationText(200 + i, 300, i % 2 ? 'I' : 'She', i % 4 < 2 ? 'was' : 'is')}\n\n${trickyText(300 + i, 1_000)}`).join('\n\n');
    expect(countWords(text)).toBeGreaterThan(20_000);
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
    }).toMatchSnapshot();
  });
});
