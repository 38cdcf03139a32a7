/**
 * The text-merge bench's cases and timing loop, free of Node APIs: bench/text-merge.ts runs it in
 * Node and, bundled by esbuild (browser/text-merge/entry.ts), in Chromium, where the editor merges.
 *
 * Each case: three-way `mergeChapterText(base, current, incoming)` against the baseline, jsdiff
 * `diffArrays` of base and incoming lines — one two-way line diff of the same texts — alternating
 * which runs first, medians of the rounds.
 */
import { mergeChapterText } from '@chronicler/schema';
import { diffArrays } from 'diff';
import { proseParagraphs, seededRandom } from './prose.ts';

export interface MergeCaseTexts {
  name: string;
  base: string;
  current: string;
  incoming: string;
  /** Whether the merge must come out clean (the bench's answer is checked, not just timed). */
  clean: boolean | null;
}

export interface CaseTiming {
  name: string;
  lines: number;
  mergeMs: number;
  diffMs: number;
  /** The slowest single merge seen (the event-loop figure). */
  worstMergeMs: number;
  conflict: string | null;
  work: number;
  clean: boolean | null;
}

/** A 20,000-word chapter of 1,000 paragraphs, both sides editing, inserting and deleting here and there. */
function scatteredProse(): MergeCaseTexts {
  const random = seededRandom(9);
  const paragraphs = Array.from({ length: 1_000 }, () => proseParagraphs(random, 20).join(' '));
  const current: string[] = [];
  const incoming: string[] = [];
  paragraphs.forEach((p, i) => {
    if (i % 200 !== 120) current.push(i % 25 === 3 ? `${p} She said nothing more.` : p);
    incoming.push(i % 25 === 15 ? p.replace(/\b\w+\b/, 'Suddenly') : p);
    if (i % 100 === 50) incoming.push('A new paragraph written on the train.');
  });
  return { name: 'prose, 1,000 paragraphs', base: paragraphs.join('\n\n'), current: current.join('\n\n'), incoming: incoming.join('\n\n'), clean: true };
}

/** 2,000 identical one-word lines (nothing anchors), a line changed every 100 on each side. */
function identicalLines(): MergeCaseTexts {
  const same = Array.from({ length: 2_000 }, () => 'word');
  return {
    name: '2,000 identical lines',
    base: same.join('\n'),
    current: same.map((w, i) => (i % 100 === 0 ? `mine ${i}` : w)).join('\n'),
    incoming: same.map((w, i) => (i % 100 === 50 ? `theirs ${i}` : w)).join('\n'),
    clean: null,
  };
}

/** The worst case: identical lines, every 2nd changed on one side and every 3rd on the other — past the bound. */
function pastTheBound(): MergeCaseTexts {
  const same = Array.from({ length: 2_000 }, () => 'word');
  return {
    name: 'past the bound (2,000 lines, ~1,000 edits)',
    base: same.join('\n'),
    current: same.map((w, i) => (i % 2 === 0 ? 'mine' : w)).join('\n'),
    incoming: same.map((w, i) => (i % 3 === 0 ? 'theirs' : w)).join('\n'),
    clean: false,
  };
}

export const CASE_NAMES = { prose: 'prose, 1,000 paragraphs', identical: '2,000 identical lines', bound: 'past the bound (2,000 lines, ~1,000 edits)' } as const;

function timeOnce(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function mergeCases(): MergeCaseTexts[] {
  return [scatteredProse(), identicalLines(), pastTheBound()];
}

/** Times every case: `rounds` rounds, each a merge and a baseline diff in alternating order. */
export function runTextMergeBench(rounds: number): CaseTiming[] {
  return mergeCases().map((c) => {
    const baseLines = c.base.split('\n');
    const merge = () => mergeChapterText(c.base, c.current, c.incoming);
    // The baseline splits its texts too: the merge's time includes reading them.
    const diff = () => diffArrays(c.base.split('\n'), c.incoming.split('\n'));
    const answer = merge();
    // Warm up until the JIT has optimised both (a couple of hundred calls), within 2 s per case.
    const warmUntil = performance.now() + 2_000;
    for (let i = 0; i < 200 && performance.now() < warmUntil; i++) {
      merge();
      diff();
    }
    const mergeTimes: number[] = [];
    const diffTimes: number[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        mergeTimes.push(timeOnce(merge));
        diffTimes.push(timeOnce(diff));
      } else {
        diffTimes.push(timeOnce(diff));
        mergeTimes.push(timeOnce(merge));
      }
    }
    return {
      name: c.name,
      lines: baseLines.length,
      mergeMs: median(mergeTimes),
      diffMs: median(diffTimes),
      worstMergeMs: Math.max(...mergeTimes),
      conflict: answer.conflict,
      work: answer.work,
      clean: c.clean,
    };
  });
}
