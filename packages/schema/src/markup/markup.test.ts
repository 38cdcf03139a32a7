import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeChapterText } from '../text-merge/index.ts';
import { countWords } from '../rules.ts';
import { chapterWordCount } from '../word-count.ts';
import { paragraphsWrittenPlain } from './serialize.ts';
import { marksAt, normalizeRuns, parseMarkup, parseParagraph, plainToMarkup, serializeRuns, toggleEmphasis, visibleText, visibleTextMap, sourceRange, type Run } from './index.ts';

const plain = (text: string): Run => ({ text, italic: false, bold: false });
const italic = (text: string): Run => ({ text, italic: true, bold: false });
const bold = (text: string): Run => ({ text, italic: false, bold: true });
const both = (text: string): Run => ({ text, italic: true, bold: true });

/** Text pieces rich in what the syntax cares about: asterisks, backslashes, spaces, line breaks, other scripts. */
const pieceArb = fc
  .array(fc.constantFrom('a', 'b', 'sea', ' ', '*', '**', '\\', '\\*', '\n', '.', '"', 'é', '日本', 'שלום', '🙂', '_', '\t'), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''));
const runArb: fc.Arbitrary<Run> = fc.record({ text: pieceArb, italic: fc.boolean(), bold: fc.boolean() });
const runsArb = fc.array(runArb, { maxLength: 8 });
const PROPERTY = { numRuns: Number(process.env.MARKUP_RUNS ?? 3_000), seed: 20_261_207 } as const;

describe('reading markup', () => {
  it('reads italic, bold and both', () => {
    expect(parseParagraph('She saw the *Dawn Treader* and **ran**.')).toEqual([
      plain('She saw the '), italic('Dawn Treader'), plain(' and '), bold('ran'), plain('.'),
    ]);
    expect(parseParagraph('***Never***, she said.')).toEqual([both('Never'), plain(', she said.')]);
    expect(parseParagraph('**bold *and italic* bold**')).toEqual([bold('bold '), both('and italic'), bold(' bold')]);
    expect(parseParagraph('un*believ*able')).toEqual([plain('un'), italic('believ'), plain('able')]);
  });

  it('keeps a lone or spaced asterisk as a character and never swallows the text after it', () => {
    expect(parseParagraph('*sigh and then the rest')).toEqual([plain('*sigh and then the rest')]);
    expect(parseParagraph('2 * 3 * 4')).toEqual([plain('2 * 3 * 4')]);
    expect(parseParagraph('a ** b')).toEqual([plain('a ** b')]);
    expect(parseParagraph('***')).toEqual([plain('***')]);
    expect(parseParagraph('* * *')).toEqual([plain('* * *')]);
    expect(parseParagraph('****word****')).toEqual([bold('word')]);
  });

  it('reads escapes as the characters they stand for', () => {
    expect(parseParagraph('5 \\* 3 is \\*not\\* emphasis')).toEqual([plain('5 * 3 is *not* emphasis')]);
    expect(parseParagraph('a back\\\\slash and a lone \\ stay')).toEqual([plain('a back\\slash and a lone \\ stay')]);
  });

  it('degrades what it does not support to literal text, never losing a character', () => {
    fc.assert(
      fc.property(pieceArb, (line) => {
        const flat = line.replace(/\n/g, ' ');
        const seen = parseParagraph(flat).map((r) => r.text).join('');
        // Every visible character is in the source, in order: markup only removes markers and escapes.
        let at = 0;
        for (const char of seen) {
          at = flat.indexOf(char, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at += char.length;
        }
        // Nothing but asterisks and backslashes can disappear.
        expect(seen.replace(/[*\\]/g, '')).toBe(flat.replace(/[*\\]/g, ''));
      }),
      PROPERTY,
    );
  });

  it('stays linear on a paragraph of many asterisks', () => {
    const line = 'a*'.repeat(50_000) + '**b '.repeat(50_000);
    const started = performance.now();
    parseParagraph(line);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('writing markup', () => {
  it('reads back as the runs written (after normalising what cannot be written)', () => {
    fc.assert(
      fc.property(runsArb, (runs) => {
        expect(parseMarkup(serializeRuns(runs))).toEqual(normalizeRuns(runs));
        // No emphasis is dropped by the safety net: both forms failing would be a bug.
        expect(paragraphsWrittenPlain()).toBe(0);
      }),
      PROPERTY,
    );
  });

  it('keeps every visible character', () => {
    fc.assert(
      fc.property(runsArb, (runs) => {
        expect(visibleText(serializeRuns(runs))).toBe(runs.map((r) => r.text).join(''));
      }),
      PROPERTY,
    );
  });

  it('writes adjacent and overlapping emphasis so it reads back', () => {
    const runs = [italic('a'), bold('b'), both('c'), italic('d'), plain(' e')];
    expect(parseMarkup(serializeRuns(runs))).toEqual(runs);
    expect(serializeRuns([plain('Her ship, the '), italic('Ariel'), plain(', sailed.')])).toBe('Her ship, the *Ariel*, sailed.');
  });

  it('writes plain text as itself, escaping only what the markup would read', () => {
    expect(plainToMarkup('5*3 and a \\ here')).toBe('5\\*3 and a \\ here');
    expect(visibleText(plainToMarkup('*a* \\* \\\\ end\\'))).toBe('*a* \\* \\\\ end\\');
  });
});

describe('counting words', () => {
  it('counts the visible words: markers never change the count', () => {
    fc.assert(
      fc.property(runsArb, (runs) => {
        const visible = runs.map((r) => r.text).join('');
        expect(chapterWordCount(serializeRuns(runs))).toBe(countWords(visible));
        expect(chapterWordCount(plainToMarkup(visible))).toBe(countWords(visible));
      }),
      PROPERTY,
    );
    expect(chapterWordCount('un*believ*able')).toBe(1);
    expect(chapterWordCount('*Dawn Treader* **ran**')).toBe(3);
  });
});

describe('toggling emphasis', () => {
  it('italicises the selection and the word at the caret, and toggles back', () => {
    const text = 'The ship sailed.\nShe watched.';
    const first = toggleEmphasis(text, 4, 8, 'italic');
    const once = text.slice(0, first.from) + first.insert + text.slice(first.to);
    expect(once).toBe('The *ship* sailed.\nShe watched.');
    expect(once.slice(first.selectionFrom, first.selectionTo)).toBe('ship');
    const back = toggleEmphasis(once, first.selectionFrom, first.selectionTo, 'italic');
    expect(once.slice(0, back.from) + back.insert + once.slice(back.to)).toBe(text);

    const caret = toggleEmphasis(text, text.indexOf('watched') + 3, text.indexOf('watched') + 3, 'bold');
    const bolded = text.slice(0, caret.from) + caret.insert + text.slice(caret.to);
    expect(bolded).toBe('The ship sailed.\nShe **watched**.');
    expect(caret.selectionFrom).toBe(caret.selectionTo);
    expect(bolded.slice(0, caret.selectionFrom)).toBe('The ship sailed.\nShe **wat');
  });

  it('opens and closes the mark at a caret outside any word', () => {
    const edit = toggleEmphasis('Go. ', 4, 4, 'italic');
    expect(edit).toMatchObject({ from: 4, to: 4, insert: '**', selectionFrom: 5, selectionTo: 5 });
  });

  it('changes nothing at a caret where new markers would pair with a stray asterisk', () => {
    const text = 'a*b \\* un able';
    expect(toggleEmphasis(text, 6, 6, 'italic')).toMatchObject({ from: 6, to: 6, insert: '' });
  });

  it('toggles over several paragraphs as one change, leaving the rest alone', () => {
    const text = 'one\ntwo three\nfour';
    const edit = toggleEmphasis(text, 1, 7, 'bold');
    expect(text.slice(0, edit.from) + edit.insert + text.slice(edit.to)).toBe('o**ne**\n**two** three\nfour');
  });

  it('reports the marks at a position', () => {
    expect(marksAt('a *b* **c**', 3)).toEqual({ italic: true, bold: false });
    expect(marksAt('a *b* **c**', 9)).toEqual({ italic: false, bold: true });
    expect(marksAt('a *b* **c**', 1)).toEqual({ italic: false, bold: false });
  });

  it('keeps the visible text whatever is toggled', () => {
    fc.assert(
      fc.property(runsArb, fc.nat(), fc.nat(), fc.constantFrom('italic' as const, 'bold' as const), (runs, a, b, mark) => {
        const text = serializeRuns(runs);
        const from = a % (text.length + 1);
        const to = b % (text.length + 1);
        const edit = toggleEmphasis(text, from, to, mark);
        const after = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
        if (from === to && (edit.insert === '**' || edit.insert === '****')) {
          // An empty mark opened at a caret: its markers are drawn until typed into, nothing else moves.
          const v = visibleText(after);
          const before = visibleText(text);
          expect(v === before || v.replace(edit.insert, '') === before || v.length === before.length + edit.insert.length).toBe(true);
          expect(v.replace(/\*/g, '')).toBe(before.replace(/\*/g, ''));
          return;
        }
        expect(visibleText(after)).toBe(visibleText(text));
      }),
      PROPERTY,
    );
  });
});

describe('merging emphasis', () => {
  it('keeps both collaborators’ emphasis added in different paragraphs', () => {
    const paragraphArb = fc.array(fc.constantFrom('sea', 'ship', 'rain', 'dawn'), { minLength: 2, maxLength: 4 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(paragraphArb, { minLength: 2, maxLength: 6 }), fc.nat(), fc.nat(), (paragraphs, a, b) => {
        const i = a % paragraphs.length;
        const j = (i + 1 + (b % (paragraphs.length - 1))) % paragraphs.length;
        const base = paragraphs.join('\n\n');
        const emphasise = (index: number, mark: 'italic' | 'bold') => {
          const start = paragraphs.slice(0, index).reduce((n, p) => n + p.length + 2, 0);
          const edit = toggleEmphasis(base, start, start + paragraphs[index]!.length, mark);
          return base.slice(0, edit.from) + edit.insert + base.slice(edit.to);
        };
        const ours = emphasise(i, 'italic');
        const theirs = emphasise(j, 'bold');
        const merged = mergeChapterText(base, ours, theirs);
        expect(merged.conflict).toBeNull();
        const runs = parseMarkup(merged.text);
        expect(runs.some((r) => r.italic && r.text === paragraphs[i])).toBe(true);
        expect(runs.some((r) => r.bold && r.text === paragraphs[j])).toBe(true);
      }),
      { numRuns: 500, seed: 20_261_207 },
    );
  });
});

describe('visibleTextMap', () => {
  it('is the visible text, and maps every visible range back onto the same source characters', () => {
    const text = 'A *ship* un**believ**able \\* end\n\n***both*** plain';
    const map = visibleTextMap(text);
    expect(map.text).toBe(visibleText(text));
    for (const word of ['ship', 'believ', 'end', 'both', 'plain']) {
      const v = map.text.indexOf(word);
      const { from, to } = sourceRange(map, v, v + word.length);
      expect(text.slice(from, to)).toBe(word);
    }
    const escaped = map.text.indexOf('*');
    expect(text.slice(sourceRange(map, escaped, escaped + 1).from, sourceRange(map, escaped, escaped + 1).to)).toBe('*');
    expect(sourceRange(map, map.text.length, map.text.length)).toEqual({ from: text.length, to: text.length });
  });

  it('maps every visible character to a source character equal to it', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '*', '\\', '\n') }), (text) => {
        const map = visibleTextMap(text);
        expect(map.text).toBe(visibleText(text));
        for (let v = 0; v < map.text.length; v++) expect(text[map.sourceOf[v]!]).toBe(map.text[v]);
      }),
    );
  });
});
