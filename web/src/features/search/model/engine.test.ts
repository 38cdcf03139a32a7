import { describe, expect, it } from 'vitest';
import { type Book, type Chapter, type Character, type TimelineEvent } from '@chronicler/schema';
import { bookDocument, chapterDocument, characterDocument, eventDocument, type SearchDocument } from '@chronicler/schema/search';
import { SearchIndex } from './engine';

const base = { rev: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', deletedAt: null };
const chapter = (id: string, content: string, extra: Partial<Chapter> = {}) =>
  chapterDocument({ ...base, id, seriesId: 's1', bookId: 'b1', title: `Chapter ${id}`, content, position: 1, wordCount: 0, status: 'draft', synopsis: '', notes: '', ...extra } as Chapter)!;
const book = bookDocument({ ...base, id: 'b1', seriesId: 's1', title: 'The First Book', description: '', position: 1, status: 'draft', wordCount: 0 } as unknown as Book)!;
const elodie = characterDocument({ ...base, id: 'p1', seriesId: 's1', name: 'Élodie Varga', aliases: ['the Lantern'], role: 'protagonist', age: '', occupation: 'locksmith', status: 'alive', description: 'Keeper of the silver key.', appearance: '', personality: '', goals: '', backstory: '', bookAppearances: [], isProtagonist: true, avatar: null, avatarUrl: null, alwaysInclude: false } as Character)!;
const siege = eventDocument({ ...base, id: 'e1', seriesId: 's1', title: 'The siege of Kessel', description: 'The walls fall.', eventType: 'plot', date: 'Year 3', bookId: null, chapterId: null, characterIds: [], locationId: null, importance: 'major', color: '#000000', position: 0, isPlotPoint: false } as unknown as TimelineEvent)!;

const context = { book: (id: string) => (id === 'b1' ? { title: 'The First Book', position: 1 } : null) };

function indexOf(docs: SearchDocument[]): SearchIndex {
  const index = SearchIndex.empty();
  index.addAll(docs);
  return index;
}

const seriesOnly = { seriesId: 's1' };
const titles = (index: SearchIndex, query: string, scope: { seriesId: string | null } = seriesOnly) =>
  index.search(query, scope, context).groups.flatMap((g) => g.results.map((r) => r.title));

describe('the search index', () => {
  const index = indexOf([
    chapter('c1', 'Mara found the *silver* key under the stair.'),
    chapter('c2', 'The key was silver, and Mara kept it.', { position: 2 }),
    chapter('c3', 'Nothing here but rain.', { position: 3, seriesId: 's2' }),
    book,
    elodie,
    siege,
  ]);

  it('finds words by prefix and with a typo, whatever their case and accents', () => {
    expect(titles(index, 'silv')).toEqual(['Chapter c1', 'Chapter c2', 'Élodie Varga']);
    expect(titles(index, 'elodie')).toEqual(['Élodie Varga']);
    expect(titles(index, 'Elodei')).toEqual(['Élodie Varga']);
    expect(titles(index, 'KESSEL')).toEqual(['The siege of Kessel']);
  });

  it('a quoted phrase matches exactly, across emphasis', () => {
    const answer = index.search('"silver key"', seriesOnly, context);
    expect(answer.groups.flatMap((g) => g.results.map((r) => r.title))).toEqual(['Chapter c1', 'Élodie Varga']);
    const hit = answer.groups[0]!.results[0]!.snippets[0]!;
    expect(hit.match).toBe('silver key');
    expect('Mara found the *silver* key under the stair.'.slice(hit.source.from, hit.source.to)).toBe('*silver* key');
  });

  it('groups chapters under their book and the bible by kind', () => {
    const answer = index.search('mara', seriesOnly, context);
    expect(answer.groups.map((g) => [g.label, g.count])).toEqual([['The First Book', 2]]);
    expect(index.search('the', seriesOnly, context).groups.map((g) => g.label)).toEqual(['The First Book', 'Characters', 'Timeline events', 'Books']);
  });

  it('searches one series or every series', () => {
    expect(titles(index, 'rain')).toEqual([]);
    expect(titles(index, 'rain', { seriesId: null })).toEqual(['Chapter c3']);
  });

  it('an empty, one-letter or punctuation-only query answers nothing and no error', () => {
    for (const q of ['', 'a', '.*[(', '   ']) expect(index.search(q, seriesOnly, context).total).toBe(0);
  });

  it('a 10,000-character query is searched literally and answers quickly', () => {
    const long = Array.from({ length: 2_000 }, (_, i) => `word${i}`).join(' ').slice(0, 10_000);
    const started = performance.now();
    const answer = index.search(long, seriesOnly, context);
    expect(performance.now() - started).toBeLessThan(500);
    expect(answer.total).toBe(0);
    const regexLike = index.search('silver.*[(key', seriesOnly, context);
    expect(regexLike.total).toBe(3);
  });

  it('a stored index is checked against the rows: changed rows are re-read, deleted ones dropped', () => {
    const old = indexOf([chapter('c1', 'Anne walked.'), chapter('c2', 'Anne ran.'), book]);
    const now = [{ ...chapter('c1', 'Mara walked.'), stamp: '2|later' }, book];
    const { index, changed } = SearchIndex.restore(old.toJSON(), new Map(old.stamps()), now);
    expect(changed).toBe(2);
    expect(titles(index, 'anne')).toEqual([]);
    expect(titles(index, 'mara')).toEqual(['Chapter c1']);
    expect(() => SearchIndex.restore('{"not":"an index"}', new Map(), now)).toThrow();
  });

  it('keeps up with saves and deletes, and a stored index reads back the same', () => {
    const live = indexOf([chapter('c1', 'Anne walked.'), book]);
    live.put('chapter:c1', chapter('c1', 'Anna walked.'));
    const snippet = () => live.search('walked', seriesOnly, context).groups[0]?.results[0]?.snippets[0];
    expect(snippet()?.before).toBe('Anna ');
    const stored = new Map(live.stamps());
    const { index: restored, changed } = SearchIndex.restore(live.toJSON(), stored, [chapter('c1', 'Anna walked.'), book]);
    expect(changed).toBe(0);
    expect(titles(restored, 'walked')).toEqual(['Chapter c1']);
    live.put('chapter:c1', null);
    expect(titles(live, 'walked')).toEqual([]);
  });
});
