/**
 * The analysis gives exactly the output it gave before its speed work (issue 11): the same
 * findings (kinds, positions, messages), stats, longest sentences and summary as the frozen copy in
 * oracle/, on random prose full of the cases the scanners must get right. golden.test.ts pins
 * fixed texts; this explores.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeProse } from './analysis.ts';
import { analyzeProse as analyzeProseBefore } from './oracle/analysis-before.ts';

const word = fc.constantFrom(
  'the', 'The', 'lantern', 'Lantern', 'lanterns', 'harbour', 'keeper', 'stone', 'road',
  'was', 'Was', 'WAS', 'were', 'is', 'Is', 'are', 'am', 'be', 'been', 'being', 'had', 'has', 'did', 'does',
  "wasn't", 'wasn’t', "didn't", "isn't", "HADN'T", "doesn't", "aren't", "hasn't", "weren't", "don't", "it's", 'rock’n’roll', "wasn''t", "wasn't'",
  'opened', 'burned', 'built', 'taken', 'Taken', 'written', 'indeed', 'Indeed', 'red', 'ed', 'bed', 'seed',
  'slowly', 'Slowly', 'really', 'REALLY', 'extremely', 'just', 'Just', 'maybe', 'stuff', 'things', 'many', 'only', 'early', 'passively',
  'saw', 'Saw', 'heard', 'felt', 'noticed', 'seemed', 'watched', 'thought', 'looked', 'knew',
  'I', 'i', 'me', 'Me', 'my', 'My', 'mine', 'myself', 'he', 'He', 'she', 'She', 'him', 'her', 'his', 'himself', 'herself',
  'Mr.', 'Dr.', 'e.g.', 'i.e.', 'etc.', 'vs.',
  '42', '3rd', 'a_b', '_was', 'was_', '_', 'naïve', 'naïvely', 'café', 'ÉTÉ', 'Ωmega', 'straße', 'İstanbul', '٣', 'Ⅻ', '😀', 'x😀y', 'é', '\u0301',
);
const glue = fc.constantFrom(
  ' ', ' ', ' ', ' ', '  ', '\t', '\u00a0', '\u2028', ', ', '; ', ' — ', '-', '. ', '! ', '? ', '… ', '?! ', '.\n', '\n', '\n\n', '\r\n',
  ' "', '" ', '"', '“', '” ', '”', "'", '’', '(', ') ', '.) ', '."\n', '', '.',
);
const prose = fc.array(fc.tuple(word, glue), { maxLength: 120 }).map((parts) => parts.map(([w, g]) => w + g).join(''));
/** Runs of narration that hold one tense and person, so that the drift findings fire. */
const narration = fc
  .array(
    fc.tuple(
      fc.constantFrom('She was', 'He had', 'She did not', 'They were', 'I was', 'I had', 'She is', 'He has', 'I am', '“I was', 'Me was', 'It was opened', 'It is'),
      fc.constantFrom(' tired', ' slowly turning', ' warned by the keeper', ' a lantern', ' really certain', ' here,” she said', ' gone'),
      fc.constantFrom('. ', '! ', '? ', '.\n', '… '),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.map((p) => p.join('')).join(''));

describe('analyzeProse, before and after its speed work', () => {
  it('gives the same output on random prose', () => {
    fc.assert(
      fc.property(fc.oneof(prose, narration, fc.string({ unit: 'grapheme', maxLength: 200 })), (text) => {
        expect(analyzeProse(text)).toEqual(analyzeProseBefore(text));
      }),
      { numRuns: 1000 },
    );
  });
});
