import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Run, appendRun, isSceneBreakLine, normalizeRuns, parseMarkup } from '@chronicler/schema';
import { readRtf } from './rtf';

const doc = (body: string, header = '{\\rtf1\\ansi\\ansicpg1252\\uc1\\deff0{\\fonttbl{\\f0 Times;}}') => `${header}${body}}`;

describe('readRtf', () => {
  it('keeps paragraphs with their italic and bold as chapter markup that reads back', () => {
    const { paragraphs } = readRtf(doc('\\pard Plain {\\i leaning} and {\\b heavy} and {\\b\\i both}.\\par Second\\i  line\\i0  ends.\\par'));
    expect(paragraphs).toEqual(['Plain *leaning* and **heavy** and ***both***.', 'Second *line* ends.']);
    expect(parseMarkup(paragraphs[0]!)).toEqual([
      { text: 'Plain ', italic: false, bold: false },
      { text: 'leaning', italic: true, bold: false },
      { text: ' and ', italic: false, bold: false },
      { text: 'heavy', italic: false, bold: true },
      { text: ' and ', italic: false, bold: false },
      { text: 'both', italic: true, bold: true },
      { text: '.', italic: false, bold: false },
    ]);
  });

  it('escapes asterisks the author typed, so they stay characters', () => {
    expect(readRtf(doc('\\pard 5 * 3 = 15\\par')).paragraphs).toEqual(['5 \\* 3 = 15']);
  });

  it('reads \\uN escapes (with their fallback skipped), negative values and the named quotes and dashes', () => {
    const { paragraphs } = readRtf(doc('\\pard \\uc1\\u8216\\\'91Hi,\\u8217\\\'92 she said \\emdash  twice\\endash \\u-3913?\\ldblquote x\\rdblquote\\par'));
    expect(paragraphs).toEqual(['‘Hi,’ she said — twice–\uF0B7“x”']);
  });

  it('reads \\\'hh bytes in the document’s code page, other than 1252', () => {
    const cyrillic = readRtf(doc("\\pard \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2\\par", '{\\rtf1\\ansi\\ansicpg1251\\deff0'));
    expect(cyrillic.paragraphs).toEqual(['Привет']);
    const japanese = readRtf(doc("\\pard \\'82\\'a0\\'82\\'a2\\par", '{\\rtf1\\ansi\\ansicpg932\\deff0'));
    expect(japanese.paragraphs).toEqual(['あい']);
    expect(readRtf(doc("\\pard Caf\\'e9\\par")).paragraphs).toEqual(['Café']);
  });

  it('keeps a scene-break line as typed', () => {
    expect(readRtf(doc('\\pard One.\\par #\\par * * *\\par Two.\\par')).paragraphs).toEqual(['One.', '#', '* * *', 'Two.']);
  });

  it('drops pictures, objects, footnotes and annotations and counts them', () => {
    const { paragraphs, leftOut } = readRtf(
      doc('\\pard A{\\pict\\pngblip 89504e47} B{\\object{\\*\\objdata 01}} C{\\footnote note text} D{\\*\\annotation a comment}.\\par'),
    );
    expect(paragraphs).toEqual(['A B C D.']);
    expect(leftOut).toMatchObject({ image: 1, object: 1, footnote: 1, comment: 1 });
  });

  it('keeps the text of unknown control words and destinations dropped and named', () => {
    const { paragraphs, leftOut } = readRtf(doc('\\pard Before\\zzmadeup7  after{\\*\\zzdest hidden} end.\\par'));
    expect(paragraphs).toEqual(['Before after end.']);
    expect([...leftOut.unknown].sort()).toEqual(['\\zzdest', '\\zzmadeup']);
  });

  it('keeps a table’s words, one paragraph per row, and counts the table once', () => {
    const { paragraphs, leftOut } = readRtf(doc('\\trowd\\cellx100\\intbl a\\cell b\\cell\\row\\trowd\\cellx100\\intbl c\\cell d\\cell\\row\\pard After.\\par'));
    expect(paragraphs).toEqual(['a b', 'c d', 'After.']);
    expect(leftOut.table).toBe(1);
  });

  it('never throws on malformed groups: an unclosed group ends with the text, a stray brace is ignored', () => {
    expect(readRtf('{\\rtf1\\ansi\\pard Open {\\i group never closes\\par').paragraphs).toEqual(['Open *group never closes*']);
    expect(readRtf('{\\rtf1\\ansi\\pard One}} two\\par}').paragraphs).toEqual(['One two']);
    expect(readRtf('').paragraphs).toEqual([]);
    expect(readRtf('not rtf at all').paragraphs).toEqual(['not rtf at all']);
  });

  it('removes Scrivener’s style markers from the text', () => {
    expect(readRtf(doc('\\pard <$Scr_Ps::0>Styled words.<!$Scr_Ps::0>\\par')).paragraphs).toEqual(['Styled words.']);
  });

  it('reads raw UTF-8 where a tool wrote it unescaped', () => {
    const bytes = new TextEncoder().encode(doc('\\pard • Item\\par'));
    expect(readRtf(bytes).paragraphs).toEqual(['• Item']);
  });
});

describe('readRtf on any styled paragraph', () => {
  /** A paragraph's runs written as Scrivener writes RTF: groups for italic and bold, \uN beyond ASCII, \\ \{ \} escaped. */
  const toRtf = (runs: readonly Run[]) =>
    runs
      .map((run) => {
        const escaped = [...run.text]
          .map((c) => (c === '\\' || c === '{' || c === '}' ? `\\${c}` : c.codePointAt(0)! > 0x7e ? Array.from({ length: c.length }, (_, k) => c.charCodeAt(k)).map((u) => `\\u${u > 0x7fff ? u - 0x10000 : u}?`).join('') : c))
          .join('');
        const marks = `${run.italic ? '\\i' : ''}${run.bold ? '\\b' : ''}`;
        return marks ? `{${marks} ${escaped}}` : escaped;
      })
      .join('');

  it('reads back the visible text and emphasis it was given (markup that parses to the same runs)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9éüß’“”—*\\{}.,!?ж漢😀]{1,8}$/u);
    const run = fc.record({ text: fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')), italic: fc.boolean(), bold: fc.boolean() });
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 6 }), fc.boolean(), (runs, spaced) => {
        const joined = spaced ? runs.map((r, i) => (i === 0 ? r : { ...r, text: ` ${r.text}` })) : runs;
        const [paragraph = ''] = readRtf(`{\\rtf1\\ansi\\ansicpg1252\\uc1\\deff0\\pard ${toRtf(joined)}\\par}`).paragraphs;
        // Adjacent runs of one style are one run (as RTF cannot tell them apart), then normalised as the serializer writes them.
        const merged: Run[] = [];
        for (const r of joined) appendRun(merged, r);
        const expected = normalizeRuns(merged);
        const text = expected.map((r) => r.text).join('');
        // A paragraph that is only a separator (`*`, `***`) stays as typed: a scene break.
        if (isSceneBreakLine(text)) expect(paragraph).toBe(text.trim());
        else expect(parseMarkup(paragraph)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
