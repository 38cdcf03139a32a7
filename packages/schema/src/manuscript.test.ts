import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Book, Chapter } from './entities.ts';
import { canExport, planForExportFormat } from './export-formats.ts';
import { buildManuscript, chapterBlocks, manuscriptToMarkdown, manuscriptToPlainText, plainParagraph, roundedWordCount } from './manuscript.ts';
import { visibleText } from './markup/index.ts';

const row = { rev: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', deletedAt: null };
const SERIES = '00000000-0000-7000-8000-000000000001';
function book(id: string, title: string, position: number): Book {
  return { ...row, id, seriesId: SERIES, title, description: '', position, status: 'in_progress', wordCount: 0 };
}
function chapter(id: string, bookId: string, title: string, position: number, content: string): Chapter {
  return { ...row, id, seriesId: SERIES, bookId, title, content, position, wordCount: content.split(/\s+/).filter(Boolean).length, status: 'draft' };
}

describe('chapterBlocks', () => {
  it('keeps the first paragraph, curly quotes and dashes as typed, and collapses blank lines', () => {
    const text = '“It begins,” she said — softly.\n\n\nSecond paragraph…\n';
    expect(chapterBlocks(text)).toEqual([
      plainParagraph('“It begins,” she said — softly.', true),
      plainParagraph('Second paragraph…', false),
    ]);
  });

  it('turns marker lines into one scene break; the next paragraph opens a scene', () => {
    const blocks = chapterBlocks('* * *\nOne.\n***\n#\nTwo.\nThree.\n~\n');
    expect(blocks).toEqual([
      plainParagraph('One.', true),
      { kind: 'sceneBreak' },
      plainParagraph('Two.', true),
      plainParagraph('Three.', false),
    ]);
  });

  it('reads emphasis into runs; the text is what the reader reads, and a lone asterisk stays', () => {
    expect(chapterBlocks('She *ran*, **fast** — 2 \\* 3 * 4.')).toEqual([
      {
        kind: 'paragraph',
        text: 'She ran, fast — 2 * 3 * 4.',
        runs: [
          { text: 'She ', italic: false, bold: false },
          { text: 'ran', italic: true, bold: false },
          { text: ', ', italic: false, bold: false },
          { text: 'fast', italic: false, bold: true },
          { text: ' — 2 * 3 * 4.', italic: false, bold: false },
        ],
        opening: true,
      },
    ]);
  });

  it('never drops or changes a word of a paragraph (property)', () => {
    const line = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/[\r\n]/.test(s) && /[\p{L}\p{N}]/u.test(s));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 20 }), (lines) => {
        const blocks = chapterBlocks(lines.join('\n'));
        const texts = blocks.flatMap((b) => (b.kind === 'paragraph' ? [b.text] : []));
        expect(texts).toEqual(lines.map((l) => l.trim()).filter((l) => l !== '').map(visibleText));
      }),
      { numRuns: 200 },
    );
  });
});

describe('buildManuscript', () => {
  it('orders books and chapters by position and leaves deleted ones out', () => {
    const b1 = book('00000000-0000-7000-8000-0000000000b1', 'Book One', 1);
    const b2 = book('00000000-0000-7000-8000-0000000000b2', 'Book Two', 2);
    const m = buildManuscript({
      series: { title: 'Saga', description: 'A saga' },
      author: 'Ada',
      books: [b2, b1, { ...book('00000000-0000-7000-8000-0000000000b3', 'Gone', 3), deletedAt: row.createdAt }],
      chapters: [
        chapter('00000000-0000-7000-8000-0000000000c2', b1.id, 'Two', 2, 'Second.'),
        chapter('00000000-0000-7000-8000-0000000000c1', b1.id, 'One', 1, 'First words here.'),
        chapter('00000000-0000-7000-8000-0000000000c3', b2.id, 'Three', 1, 'Third.'),
        { ...chapter('00000000-0000-7000-8000-0000000000c4', b2.id, 'Deleted', 2, 'x'), deletedAt: row.createdAt },
      ],
    });
    expect(m.books.map((b) => [b.title, b.chapters.map((c) => c.title)])).toEqual([
      ['Book One', ['One', 'Two']],
      ['Book Two', ['Three']],
    ]);
    expect(m.wordCount).toBe(5);
    const md = manuscriptToMarkdown(m);
    expect(md.indexOf('## Book One')).toBeLessThan(md.indexOf('### Two'));
    expect(md).toContain('First words here.');
    const txt = manuscriptToPlainText(m);
    expect(txt).toContain('Third.');
    expect(txt).not.toContain('Deleted');
  });

  it('escapes Markdown markup at the start of a paragraph without changing the words', () => {
    const b = book('00000000-0000-7000-8000-0000000000b1', 'B', 1);
    const m = buildManuscript({ series: { title: 'S', description: '' }, author: 'A', books: [b], chapters: [chapter('00000000-0000-7000-8000-0000000000c1', b.id, 'C', 1, '# not a heading\n\\*stars\\*')] });
    expect(manuscriptToMarkdown(m)).toContain('\\# not a heading\n\n\\*stars\\*');
  });

  it('writes emphasis as Markdown and leaves it out of plain text; a lone asterisk stays a character', () => {
    const b = book('00000000-0000-7000-8000-0000000000b1', 'B', 1);
    const content = '*Stars* fell, **all** of ***them***, 2 * 3.\n- *listed* not a list';
    const m = buildManuscript({ series: { title: 'S', description: '' }, author: 'A', books: [b], chapters: [chapter('00000000-0000-7000-8000-0000000000c1', b.id, 'C', 1, content)] });
    const md = manuscriptToMarkdown(m);
    expect(md).toContain('*Stars* fell, **all** of ***them***, 2 \\* 3.\n');
    expect(md).toContain('\\- *listed* not a list');
    const txt = manuscriptToPlainText(m);
    expect(txt).toContain('Stars fell, all of them, 2 * 3.\n');
  });
});

describe('roundedWordCount', () => {
  it('rounds the usual way for short stories, novellas and novels', () => {
    expect(roundedWordCount(4_349)).toBe(4_300);
    expect(roundedWordCount(23_260)).toBe(23_500);
    expect(roundedWordCount(98_612)).toBe(99_000);
    expect(roundedWordCount(12)).toBe(100);
  });
});

describe('export formats by plan', () => {
  it('basic = PDF and TXT, advanced adds DOCX, premium has all', () => {
    expect(canExport('apprentice', 'pdf') && canExport('apprentice', 'txt')).toBe(true);
    expect(canExport('apprentice', 'docx')).toBe(false);
    expect(canExport('wordsmith', 'docx')).toBe(true);
    expect(canExport('loremaster', 'epub')).toBe(false);
    expect(canExport('legendary', 'epub') && canExport('legendary', 'markdown')).toBe(true);
    expect(planForExportFormat('docx')).toBe('wordsmith');
    expect(planForExportFormat('epub')).toBe('legendary');
  });
});
