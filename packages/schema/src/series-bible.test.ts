import { describe, expect, it } from 'vitest';
import type { Book, Chapter, Character } from './entities.ts';
import { manuscriptToMarkdown } from './manuscript.ts';
import { buildSeriesBible } from './series-bible.ts';
import { canonSeries } from './testing/canon-series.ts';

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

describe('the series bible’s canon over time', () => {
  it('lists each entity’s changes in reading order at their book and chapter, unanchored ones last, and nothing without changes', () => {
    const s = canonSeries();
    const one = s.book('The Salt Crown');
    const two = s.book('The Iron Tide');
    const [siege, cut] = [s.chapter(one, 'The Siege'), s.chapter(one, 'Cut Scene')];
    const storm = s.chapter(two, 'Storm');
    const mara = s.character('Mara');
    const ilse = s.character('Ilse');
    s.character('Tomas');
    const keep = s.location('Stone Keep');
    const sisters = s.relationship(mara, ilse);
    s.change(mara, 'character', 'status', 'missing', storm, { note: 'Lost at sea' });
    s.change(mara, 'character', 'whereabouts', 'the dungeons', siege, { locationId: keep.id, date: 'Year 3' });
    s.change(mara, 'character', 'status', 'deceased', cut);
    s.change(sisters, 'relationship', 'status', 'ended', storm);
    s.change(keep, 'location', 'state', 'destroyed', siege);
    cut.deletedAt = '2026-02-01T00:00:00.000Z';
    const bible = buildSeriesBible({ ...base, books: s.books, chapters: s.chapters, characters: s.characters, relationships: s.relationships, locations: s.locations, canonChanges: s.changes });
    const canon = bible.books.find((b) => b.title === 'Canon over time')!;
    const text = (c: { blocks: readonly { kind: string; text?: string }[] }) => c.blocks.map((b) => b.text);
    expect(canon.chapters.map((c) => c.title)).toEqual(['Mara', 'Mara and Ilse', 'Stone Keep']);
    expect(text(canon.chapters[0]!)).toEqual([
      'The Salt Crown, The Siege: Whereabouts: Stone Keep, the dungeons (Year 3)',
      'The Iron Tide, Storm: Status: Missing (Lost at sea)',
      'Unanchored (its chapter is gone): Status: Deceased',
    ]);
    expect(text(canon.chapters[1]!)).toEqual(['The Iron Tide, Storm: Status: Ended']);
    expect(text(canon.chapters[2]!)).toEqual(['The Salt Crown, The Siege: State: Destroyed']);
    expect(buildSeriesBible(base).books.map((b) => b.title)).not.toContain('Canon over time');
  });
});

describe('the series bible’s places', () => {
  it('lists each place after the place it is inside, says where it is, and outlines the tree first', () => {
    const s = canonSeries();
    const earthsea = s.location('Earthsea');
    const archipelago = s.location('Archipelago', { parentId: earthsea.id });
    s.location('Roke', { parentId: archipelago.id });
    s.location('Havnor', { parentId: archipelago.id });
    s.location('Gont');
    const bible = buildSeriesBible({ ...base, locations: s.locations });
    const places = bible.books.find((b) => b.title === 'Places')!;
    expect(places.chapters.map((c) => c.title)).toEqual(['Places at a glance', 'Earthsea', 'Archipelago', 'Havnor', 'Roke', 'Gont']);
    const text = (i: number) => places.chapters[i]!.blocks.map((b) => (b.kind === 'paragraph' ? b.text : ''));
    const nbsp = '\u00a0'.repeat(4);
    expect(text(0)).toEqual(['Earthsea', `${nbsp}– Archipelago`, `${nbsp}${nbsp}– Havnor`, `${nbsp}${nbsp}– Roke`, 'Gont']);
    expect(text(4)[0]).toBe('Inside: Earthsea › Archipelago');
    expect(text(1)[0]).toBe('Type: City');
    // Markdown keeps the outline's indentation as typed (no code block, no list).
    expect(manuscriptToMarkdown(bible)).toContain(`\n\n${nbsp}${nbsp}– Roke\n\n`);
  });

  it('has no outline when no place is inside another', () => {
    const s = canonSeries();
    s.location('Gont');
    s.location('Atuan');
    const places = buildSeriesBible({ ...base, locations: s.locations }).books.find((b) => b.title === 'Places')!;
    expect(places.chapters.map((c) => c.title)).toEqual(['Atuan', 'Gont']);
  });
});
