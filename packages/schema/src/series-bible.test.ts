import { describe, expect, it } from 'vitest';
import type { Book, Chapter, Character } from './entities.ts';
import { buildSeriesBible } from './series-bible.ts';

const at = '2026-01-01T00:00:00.000Z';
const row = { rev: 1, createdAt: at, updatedAt: at, deletedAt: null };
const seriesId = '00000000-0000-7000-8000-000000000001';
const book = (n: number, title: string): Book => ({ ...row, id: `00000000-0000-7000-8000-0000000000b${n}`, seriesId, title, description: '', position: n, status: 'in_progress', wordCount: 0 });
const chapter = (b: Book, n: number, fields: Partial<Chapter>): Chapter => ({
  ...row, id: `00000000-0000-7000-8000-000000000${b.position}c${n}`, seriesId, bookId: b.id, title: `Chapter ${n}`, content: 'Words.', position: n, wordCount: 1, status: 'draft', ...fields,
});
const base = { series: { title: 'The Glass Kingdoms', description: '' }, author: 'Ada', characters: [], relationships: [], locations: [], events: [] };

describe('buildSeriesBible', () => {
  it('lists each book’s chapter synopses and notes, in reading order, as marked text', () => {
    const one = book(1, 'The Salt Crown');
    const two = book(2, 'The Iron Tide');
    const chapters = [
      chapter(one, 2, { synopsis: 'The harbour burns.' }),
      chapter(one, 1, { synopsis: 'Mara finds the *map*.', notes: 'Check the **tide** tables.\nAnd the moon.' }),
      chapter(one, 3, {}),
      chapter(two, 1, { notes: 'Open on Ilse.', deletedAt: at }),
    ];
    const bible = buildSeriesBible({ ...base, books: [two, one], chapters });
    expect(bible.books.map((b) => b.title)).toEqual(['Outline: The Salt Crown']);
    const [first, second] = bible.books[0]!.chapters;
    expect(first!.title).toBe('Chapter 1');
    const plain = (text: string) => ({ text, italic: false, bold: false });
    expect(first!.blocks).toEqual([
      { kind: 'paragraph', text: 'Synopsis: Mara finds the map.', runs: [plain('Synopsis: Mara finds the '), { text: 'map', italic: true, bold: false }, plain('.')], opening: true },
      { kind: 'paragraph', text: 'Notes: Check the tide tables.', runs: [plain('Notes: Check the '), { text: 'tide', italic: false, bold: true }, plain(' tables.')], opening: false },
      { kind: 'paragraph', text: 'And the moon.', runs: [plain('And the moon.')], opening: false },
    ]);
    expect(second!.blocks).toEqual([{ kind: 'paragraph', text: 'Synopsis: The harbour burns.', runs: [plain('Synopsis: The harbour burns.')], opening: true }]);
  });

  it('keeps the plain fields as typed, so an asterisk typed in a description stays one', () => {
    const mara: Character = {
      ...row, id: '00000000-0000-7000-8000-0000000000a1', seriesId, name: 'Mara', role: 'protagonist', age: '', occupation: '', description: 'Rated 5*',
      appearance: '', personality: '', goals: '', backstory: '', bookAppearances: [], isProtagonist: true, status: 'alive', aliases: [], alwaysInclude: false, avatar: null, avatarUrl: null,
    } as unknown as Character;
    const bible = buildSeriesBible({ ...base, characters: [mara] });
    expect(bible.books[0]!.chapters[0]!.blocks.map((b) => (b.kind === 'paragraph' ? b.text : ''))).toContain('Description: Rated 5*');
  });
});
