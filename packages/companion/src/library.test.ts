/**
 * The passive and adverb findings are write-good's own verdicts: the analysis asks the library about
 * each distinct \w run once instead of running its expressions over the whole text (analysis.ts
 * libraryFindings), so here write-good over the whole text is the oracle — positions and phrases
 * equal on random prose full of the hard cases (apostrophes, underscores, non-ASCII letters, quotes).
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- write-good ships no types
/// <reference path="./vendor.d.ts" />
import fc from 'fast-check';
import writeGood from 'write-good';
import { describe, expect, it } from 'vitest';
import { analyzeProse } from './analysis.ts';

const word = fc.constantFrom(
  'the', 'The', 'lantern', 'Lantern', 'lanterns', 'harbour', 'keeper', 'stone', 'road',
  'was', 'Was', 'WAS', 'were', 'is', 'Is', 'are', 'am', 'be', 'been', 'being', 'had', 'has', 'did', 'does',
  "wasn't", 'wasn’t', "didn't", "isn't", "HADN'T", "doesn't", "aren't", "hasn't", "weren't", "don't", "it's", 'rock’n’roll', "wasn''t", "wasn't'",
  'opened', 'burned', 'built', 'taken', 'Taken', 'written', 'indeed', 'Indeed', 'red', 'ed', 'bed', 'seed',
  'slowly', 'Slowly', 'really', 'REALLY', 'extremely', 'just', 'Just', 'maybe', 'many', 'only', 'early', 'passively',
  'I', 'me', 'she', 'He', 'her', 'himself', 'Mr.', 'e.g.', '42', '3rd', 'a_b', '_was', 'was_', '_',
  'naïve', 'naïvely', 'café', 'ÉTÉ', 'Ωmega', 'straße', 'İstanbul', '٣', 'Ⅻ', '😀', 'x😀y', 'é', '\u0301',
);
const spaces = [' ', ' ', ' ', '  ', '\t', '\u00a0', '\u2028', ', ', '; ', ' — ', '-', '. ', '! ', '? ', '… ', '.\n', '\n', '\n\n', '\r\n', '(', ') ', '', '.'];
const quotes = [' "', '" ', '"', '“', '” ', '”', "'", '’'];
const proseWith = (glue: readonly string[]) =>
  fc.array(fc.tuple(word, fc.constantFrom(...glue)), { maxLength: 120 }).map((parts) => parts.map(([w, g]) => w + g).join(''));

type Hit = { start: number; end: number; phrase: string };
const hitsOf = (text: string, reason: string): Hit[] =>
  writeGood(text, { passive: true, adverb: true, weasel: false, illusion: false, so: false, thereIs: false, tooWordy: false, cliches: false, eprime: false })
    .filter((hit) => hit.reason.includes(reason))
    .map((hit) => ({ start: hit.index, end: hit.index + hit.offset, phrase: text.slice(hit.index, hit.index + hit.offset) }));
const foundOf = (text: string, kind: 'passive' | 'adverb'): Hit[] =>
  analyzeProse(text)
    .findings.filter((f) => f.kind === kind)
    .map((f) => ({ start: f.start, end: f.end, phrase: text.slice(f.start, f.end) }));

describe('passive voice and adverbs are write-good’s verdicts over the whole text', () => {
  it('passives: the same places as write-good finds, with or without dialogue', () => {
    fc.assert(
      fc.property(proseWith([...spaces, ...quotes]), (text) => {
        expect(foundOf(text, 'passive')).toEqual(hitsOf(text, 'passive'));
      }),
      { numRuns: 1000 },
    );
  });

  it('adverbs: the same places as write-good finds when there is no dialogue; inside dialogue some are left out, none added', () => {
    fc.assert(
      fc.property(proseWith(spaces), (text) => {
        expect(foundOf(text, 'adverb')).toEqual(hitsOf(text, 'weaken'));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(proseWith([...spaces, ...quotes]), (text) => {
        const library = hitsOf(text, 'weaken');
        for (const found of foundOf(text, 'adverb')) expect(library).toContainEqual(found);
      }),
      { numRuns: 500 },
    );
  });
});
