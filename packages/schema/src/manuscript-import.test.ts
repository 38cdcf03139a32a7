import { describe, expect, it } from 'vitest';
import type { Book, Chapter } from './entities.ts';
import { buildManuscript, manuscriptToMarkdown } from './manuscript.ts';
import { OPENING_CHAPTER_TITLE, markdownBlocks, splitIntoChapters } from './manuscript-import.ts';

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

  it('reads Setext headings, joins wrapped lines, keeps scene breaks and undoes escapes', () => {
    const md = 'Chapter One\n===========\nIt was a\nlong night.\n\n* * *\n\n\\*stars\\* and \\# hash\n\nChapter Two\n===\nEnd.';
    expect(splitIntoChapters(markdownBlocks(md)).chapters).toEqual([
      { title: 'Chapter One', content: 'It was a long night.\n* * *\n*stars* and # hash' },
      { title: 'Chapter Two', content: 'End.' },
    ]);
  });

  it('takes back a Markdown export chapter for chapter, paragraph for paragraph', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const row = { rev: 1, createdAt: at, updatedAt: at, deletedAt: null };
    const seriesId = '00000000-0000-7000-8000-000000000001';
    const book: Book = { ...row, id: '00000000-0000-7000-8000-0000000000b1', seriesId, title: 'B', description: '', position: 1, status: 'in_progress', wordCount: 0 };
    const texts = ['# Not a heading\n*stars* [link]\n1. not a list', 'Second — “chapter”.\n\n* * *\n\nAfter the break.'];
    const chapters: Chapter[] = texts.map((content, i) => ({ ...row, id: `00000000-0000-7000-8000-0000000000c${i}`, seriesId, bookId: book.id, title: `Chapter ${i + 1}`, content, position: i + 1, wordCount: 1, status: 'draft' }));
    const md = manuscriptToMarkdown(buildManuscript({ series: { title: 'S', description: '' }, author: 'A', books: [book], chapters }), { sceneBreak: '* * *' });
    const back = splitIntoChapters(markdownBlocks(md));
    expect(back.title).toBe('S');
    expect(back.chapters.map((c) => c.title)).toEqual(['Opening', 'Chapter 1', 'Chapter 2']);
    expect(back.chapters[1]!.content).toBe('# Not a heading\n*stars* [link]\n1. not a list');
    expect(back.chapters[2]!.content).toBe('Second — “chapter”.\n* * *\nAfter the break.');
  });

  it('makes one chapter of a document without headings', () => {
    expect(splitIntoChapters(markdownBlocks('Just words.\n\nMore words.'))).toEqual({ title: null, chapters: [{ title: OPENING_CHAPTER_TITLE, content: 'Just words.\nMore words.' }] });
  });
});
