/** The analysis reads chapter markup as the author does (docs/decisions/0009-chapter-markup.md). */
import { describe, expect, it } from 'vitest';
import { analyzeProse } from './analysis.ts';

describe('analyzeProse on marked text', () => {
  const plain = 'The door was opened by the guard. He really ran quickly to the *Argo*. She walked slowly home.';
  const marked = 'The door *was opened* by the guard. He **really** ran *quickly* to the \\*Argo\\*. She walked **slowly** home.';

  it('finds what it finds in the same words read without markers', () => {
    const a = analyzeProse(plain.replace('*Argo*', '*Argo*'));
    const b = analyzeProse(marked);
    expect(b.findings.map((f) => f.kind)).toEqual(a.findings.map((f) => f.kind));
    expect(b.stats.words).toBe(a.stats.words);
  });

  it('puts every finding on the source words, never on a marker', () => {
    const analysis = analyzeProse(marked);
    expect(analysis.findings.length).toBeGreaterThan(0);
    for (const finding of analysis.findings) {
      const words = marked.slice(finding.start, finding.end);
      expect(words.startsWith('*')).toBe(false);
      expect(words.endsWith('*')).toBe(false);
    }
    const adverb = analysis.findings.find((f) => f.kind === 'adverb' && marked.slice(f.start, f.end) === 'quickly');
    expect(adverb).toBeDefined();
    const passive = analysis.findings.find((f) => f.kind === 'passive');
    expect(passive && marked.slice(passive.start, passive.end)).toBe('was opened');
  });
});
