import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EditorState } from '@codemirror/state';
import { countWords } from '@chronicler/schema';
import { wordCountField } from '../components/prose-extensions';
import { countDocWords } from './word-count';

const alphabet = fc.constantFrom('a', 'b', ' ', '\n', '.', '-', "'", 'é', '—', '\n\n', 'word ');
const text = fc.array(alphabet, { maxLength: 60 }).map((xs) => xs.join(''));

describe('incremental word count', () => {
  it('counts a document the way the editor rule counts the whole text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(countDocWords(EditorState.create({ doc: t }).doc)).toBe(countWords(t));
      }),
    );
  });

  it('stays equal to a full recount after any sequence of edits', () => {
    const edit = fc.record({ a: fc.nat(), b: fc.nat(), insert: text });
    fc.assert(
      fc.property(text, fc.array(edit, { maxLength: 12 }), (start, edits) => {
        let state = EditorState.create({ doc: start, extensions: [wordCountField] });
        for (const e of edits) {
          const len = state.doc.length;
          const from = Math.min(e.a % (len + 1), e.b % (len + 1));
          const to = Math.max(e.a % (len + 1), e.b % (len + 1));
          state = state.update({ changes: { from, to, insert: e.insert } }).state;
          expect(state.field(wordCountField)).toBe(countWords(state.doc.toString()));
        }
      }),
    );
  });

  it('handles several changes in one transaction', () => {
    let state = EditorState.create({ doc: 'one two\nthree four\nfive', extensions: [wordCountField] });
    state = state.update({ changes: [{ from: 0, to: 3, insert: 'uno dos' }, { from: 8, to: 18, insert: '' }, { from: 23, insert: ' six\nseven' }] }).state;
    expect(state.field(wordCountField)).toBe(countWords(state.doc.toString()));
  });

  it('counts 20,000 words on one keystroke without a full recount', () => {
    const para = 'The river ran cold under the bridge, and Mara counted the lanterns as they drifted past.';
    const doc = Array.from({ length: 1250 }, () => para).join('\n\n');
    let state = EditorState.create({ doc, extensions: [wordCountField] });
    expect(state.field(wordCountField)).toBe(20_000);
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) state = state.update({ changes: { from: 500, insert: i % 5 === 0 ? ' ' : 'x' } }).state;
    const perKeystroke = (performance.now() - t0) / 200;
    expect(state.field(wordCountField)).toBe(countWords(state.doc.toString()));
    expect(perKeystroke).toBeLessThan(5);
  });
});
