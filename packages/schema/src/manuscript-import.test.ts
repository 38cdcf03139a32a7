import { describe, expect, it } from 'vitest';
import type { Book, Chapter } from './entities.ts';
import { buildManuscript, manuscriptToMarkdown } from './manuscript.ts';
import { OPENING_CHAPTER_TITLE, describeLeftOut, markdownBlocks, splitIntoChapters } from './manuscript-import.ts';
import { parseMarkup } from './markup/parse.ts';

describe('splitIntoChapters', () => {
  it('splits at the repeated heading level; a lone top heading is the title; text before the first chapter is kept', () => {
    const md = '# The Salt Crown\n\nA dedication.\n\n## Salt and Ash\n\nThe first paragraph.\n\n“Quoted” — dash.\n\n## The Harbour\n\nGulls.\n\n### A scene title\n\nMore.\n';
    expect(splitIntoChapters(markdownBlocks(md))).toEqual({
      title: 'The Salt Crown',
      chapters: [
        { title: OPENING_CHAPTER_TITLE, content: 'A dedication.' },
        { title: 'Salt and Ash', content: 'The first paragraph.\n“Quoted” — dash.' },
        { title: 'The Harbour', content: 'Gulls.\nA scene title\nMore.' },
      ],
    });
  });

  it('reads Setext headings, joins wrapped lines, keeps scene breaks and undoes escapes (an escaped star stays one)', () => {
    const md = 'Chapter One\n===========\nIt was a\nlong night.\n\n* * *\n\n\\*stars\\* and \\# hash\n\nChapter Two\n===\nEnd.';
    expect(splitIntoChapters(markdownBlocks(md)).chapters).toEqual([
      { title: 'Chapter One', content: 'It was a long night.\n* * *\n\\*stars\\* and # hash' },
      { title: 'Chapter Two', content: 'End.' },
    ]);
  });

  it('takes back a Markdown export chapter for chapter, paragraph for paragraph', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const row = { rev: 1, createdAt: at, updatedAt: at, deletedAt: null };
    const seriesId = '00000000-0000-7000-8000-000000000001';
    const book: Book = { ...row, id: '00000000-0000-7000-8000-0000000000b1', seriesId, title: 'B', description: '', position: 1, status: 'in_progress', wordCount: 0 };
    const texts = ['# Not a heading\n_under_ [link]\n1. not a list', 'Second — “chapter”.\n\n* * *\n\nAfter the break.'];
    const chapters: Chapter[] = texts.map((content, i) => ({ ...row, id: `00000000-0000-7000-8000-0000000000c${i}`, seriesId, bookId: book.id, title: `Chapter ${i + 1}`, content, position: i + 1, wordCount: 1, status: 'draft' }));
    const md = manuscriptToMarkdown(buildManuscript({ series: { title: 'S', description: '' }, author: 'A', books: [book], chapters }), { sceneBreak: '* * *' });
    const back = splitIntoChapters(markdownBlocks(md));
    expect(back.title).toBe('S');
    expect(back.chapters.map((c) => c.title)).toEqual(['Opening', 'Chapter 1', 'Chapter 2']);
    expect(back.chapters[1]!.content).toBe('# Not a heading\n_under_ [link]\n1. not a list');
    expect(back.chapters[2]!.content).toBe('Second — “chapter”.\n* * *\nAfter the break.');
  });

  it('makes one chapter of a document without headings', () => {
    expect(splitIntoChapters(markdownBlocks('Just words.\n\nMore words.'))).toEqual({ title: null, chapters: [{ title: OPENING_CHAPTER_TITLE, content: 'Just words.\nMore words.' }] });
  });

  it('keeps Markdown emphasis as chapter markup: *x* and _x_ italic, **x** and __x__ bold', () => {
    const md = '# A\n\nShe read *The Tide* and _Moby Dick_, **twice**, __aloud__ — ***all of it***.\n\n# B\n\nEnd.';
    const content = splitIntoChapters(markdownBlocks(md)).chapters[0]!.content;
    expect(content).toBe('She read *The Tide* and *Moby Dick*, **twice**, **aloud** — ***all of it***.');
    expect(parseMarkup(content).filter((r) => r.italic || r.bold)).toEqual([
      { text: 'The Tide', italic: true, bold: false },
      { text: 'Moby Dick', italic: true, bold: false },
      { text: 'twice', italic: false, bold: true },
      { text: 'aloud', italic: false, bold: true },
      { text: 'all of it', italic: true, bold: true },
    ]);
  });

  it('keeps what is not emphasis as typed: snake_case, a lone star or underscore, escapes, 5 * 3', () => {
    const read = (line: string) => (markdownBlocks(line)[0] as { text: string }).text;
    expect(read('snake_case_name and file_name')).toBe('snake_case_name and file_name');
    expect(read('_unclosed and 5 * 3')).toBe('_unclosed and 5 \\* 3');
    expect(read('a \\_b\\_ and \\*c\\* and back\\\\slash')).toBe('a _b_ and \\*c\\* and back\\slash');
    expect(read('*unclosed star')).toBe('\\*unclosed star');
    // A heading is a title: its emphasis markers go.
    expect(markdownBlocks('# The *Iron* Tide')[0]).toEqual({ kind: 'heading', level: 1, text: 'The Iron Tide' });
  });

  it('reads a plain text file’s asterisks and backslashes as characters', () => {
    expect(markdownBlocks('Chapter *one*, a\\b', 'plain')).toEqual([{ kind: 'paragraph', text: 'Chapter \\*one\\*, a\\b' }]);
    expect(markdownBlocks('* * *', 'plain')).toEqual([{ kind: 'paragraph', text: '* * *' }]);
  });
});

describe('describeLeftOut', () => {
  it('lists what an import leaves out, or nothing', () => {
    expect(describeLeftOut({})).toBeNull();
    expect(describeLeftOut({ image: 0 })).toBeNull();
    expect(describeLeftOut({ image: 2, table: 1 })).toBe('2 images and 1 table will not be imported');
    expect(describeLeftOut({ footnote: 1, image: 1, comment: 3, textBox: 2 })).toBe('1 image, 1 footnote, 3 comments and 2 text boxes will not be imported');
  });
});
