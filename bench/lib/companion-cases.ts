/**
 * The built-in analysis of a 20,000-word chapter against the editor's own word count of the same
 * text (countWords), alternately first, medians: the same loop in Node and in Chromium.
 */
import { countWords } from '@chronicler/schema';
import { analyzeProse } from '@chronicler/companion';
import { chapterText } from './prose.ts';
import { median } from './report.ts';

export interface AnalysisTiming {
  words: number;
  analysisMs: number;
  wordCountMs: number;
  /** Every round's analysis time, in order (the median is analysisMs). */
  analysisRuns: number[];
  /** The warm-up calls' analysis times, in order: the first is the analysis with nothing compiled yet (not in the ratio). */
  warmupRuns: number[];
  findings: number;
}

const WARMUP_CALLS = 3;

export function runAnalysisBench(rounds: number, words = 20_000): AnalysisTiming {
  const text = chapterText(11, words);
  const analysis: number[] = [];
  const counting: number[] = [];
  let findings = 0;
  // Warm-up: both paths optimised before anything is timed. One call left the analysis's first
  // rounds twice as slow as the rest in Node and Chromium (the JIT's tiers take a few calls).
  const warmup: number[] = [];
  for (let i = 0; i < WARMUP_CALLS; i++) {
    const started = performance.now();
    analyzeProse(text);
    warmup.push(performance.now() - started);
    countWords(text);
  }
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ['count', 'analyse'] : ['analyse', 'count'];
    for (const step of order) {
      const started = performance.now();
      if (step === 'count') countWords(text);
      else findings = analyzeProse(text).findings.length;
      (step === 'count' ? counting : analysis).push(performance.now() - started);
    }
  }
  return { words: countWords(text), analysisMs: median(analysis), wordCountMs: median(counting), analysisRuns: analysis, warmupRuns: warmup, findings };
}
