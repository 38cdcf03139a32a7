import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Chapter, Character, TimelineEvent } from '../entities.ts';
import { chapterDocument, characterDocument, eventDocument } from './documents.ts';
import { fieldHits, readField, snippetOf } from './hits.ts';
import { parseQuery } from './query.ts';
import { groupResults, resultOf } from './results.ts';
import { foldTerm, wordTokens } from './tokens.ts';

const base = { rev: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', deletedAt: null, seriesId: 's1' };
const chapter = (content: string, extra: Partial<Chapter> = {}): Chapter => ({ ...base, id: 'c1', bookId: 'b1', title: 'The Key', content, position: 1, wordCount: 0, status: 'draft', synopsis: '', notes: '', ...extra }) as Chapter;

/** What the index matches for a query over a text, without the index: every word equal to a query word or starting with one. */
function matchedIn(text: string, input: string): Set<string> {
  const loose = parseQuery(input).terms.filter((t) => t.phrase === null).map((t) => t.term);
  return new Set(wordTokens(text).map((t) => t.term).filter((t) => loose.some((q) => t.startsWith(q))));
}

describe('folding', () => {
  it('drops case and accents, so "Elodie" finds "Élodie"', () => {
    expect(foldTerm('Élodie')).toBe('elodie');
    expect(foldTerm('ÉLODIE')).toBe('elodie');
    expect(foldTerm('Straße')).toBe('strasse');
    expect(foldTerm('Søren')).toBe('soren');
    expect(foldTerm('don’t')).toBe("don't");
  });

  it('reads decomposed accents (NFD) as the composed ones', () => {
    expect(wordTokens('E\u0301lodie').map((t) => t.term)).toEqual(['elodie']);
  });

  it('tokens keep their place in the text', () => {
    expect(wordTokens('Mara’s silver-key.')).toEqual([
      { term: "mara's", from: 0, to: 6 },
      { term: 'silver', from: 7, to: 13 },
      { term: 'key', from: 14, to: 17 },
    ]);
  });
});

describe('queries', () => {
  it('an empty or one-character query is nothing to search for', () => {
    expect(parseQuery('').empty).toBe(true);
    expect(parseQuery('  a ').empty).toBe(true);
    expect(parseQuery('ab').empty).toBe(false);
  });

  it('regex-like characters are separators, never a pattern', () => {
    expect(parseQuery('.*[(').empty).toBe(true);
    expect(parseQuery('key.*[(').terms).toEqual([{ term: 'key', phrase: null }]);
  });

  it('quoted phrases (straight or curly, closed or not) keep their words in order', () => {
    const q = parseQuery('Mara “silver key” "old door');
    expect(q.phrases).toEqual([['silver', 'key'], ['old', 'door']]);
    expect(q.terms.filter((t) => t.phrase === null).map((t) => t.term)).toEqual(['mara']);
  });

  it('a long pasted query parses quickly and whole', () => {
    const long = 'word '.repeat(2_000);
    const started = performance.now();
    const q = parseQuery(long);
    expect(performance.now() - started).toBeLessThan(200);
    expect(q.terms).toEqual([{ term: 'word', phrase: null }]);
  });

  it('never throws, whatever is typed', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (input) => void parseQuery(input)));
  });
});

describe('hits', () => {
  it('emphasis never breaks a word, and the hit maps back to the marked text', () => {
    const text = 'It was un*believ*able, the **silver key**.';
    const read = readField(chapterDocument(chapter(text))!.fields[1]!);
    const hits = fieldHits(read, parseQuery('unbelievable'), new Set(['unbelievable']));
    expect(hits).toHaveLength(1);
    const doc = chapterDocument(chapter(text))!;
    const result = resultOf({ doc, score: 1, matched: new Set(['unbelievable']) }, parseQuery('unbelievable'))!;
    const { from, to } = result.snippets[0]!.source;
    expect(text.slice(from, to)).toBe('un*believ*able');
  });

  it('a phrase matches across markup but not across a paragraph or a sentence', () => {
    const text = 'She held the *silver* key.\nA silver\nkey. Silver. Key.';
    const doc = chapterDocument(chapter(text))!;
    const result = resultOf({ doc, score: 1, matched: new Set() }, parseQuery('"silver key"'))!;
    expect(result.count).toBe(1);
    expect(text.slice(result.snippets[0]!.source.from, result.snippets[0]!.source.to)).toBe('*silver* key');
  });

  it('a document without the quoted phrase is no result', () => {
    const doc = chapterDocument(chapter('The key was silver.'))!;
    expect(resultOf({ doc, score: 1, matched: new Set(['key', 'silver']) }, parseQuery('"silver key"'))).toBeNull();
  });

  it('counts every hit and keeps at most three snippets, the text first', () => {
    const text = 'Anne ran. Anne hid.\nAnne slept. Anne woke.';
    const doc = chapterDocument(chapter(text, { synopsis: 'Anne again', title: 'Anne' }))!;
    const q = 'anne';
    const result = resultOf({ doc, score: 1, matched: matchedIn(text, q) }, parseQuery(q))!;
    expect(result.count).toBe(6);
    expect(result.snippets).toHaveLength(3);
    expect(result.snippets.every((s) => s.field === 'content')).toBe(true);
  });

  it('a snippet is the hit in its paragraph with a little context, cut at words', () => {
    const text = `${'lorem '.repeat(30)}the silver key ${'ipsum '.repeat(30)}\nnext paragraph`;
    const at = text.indexOf('silver');
    const snippet = snippetOf(text, at, at + 6);
    expect(snippet.match).toBe('silver');
    expect(snippet.cutBefore && snippet.cutAfter).toBe(true);
    expect(snippet.before.startsWith('lorem')).toBe(true);
    expect(snippet.after).not.toContain('next');
  });

  it('searches a character\'s aliases and every text field, and an event\'s description', () => {
    const character = characterDocument({ ...base, id: 'p1', name: 'Anne Marlowe', aliases: ['The Grey Widow'], backstory: 'Born in Kessel.', role: 'protagonist', age: '', occupation: '', status: 'alive', description: '', appearance: '', personality: '', goals: '', bookAppearances: [], isProtagonist: true, avatar: null, avatarUrl: null, alwaysInclude: false } as Character)!;
    const widow = resultOf({ doc: character, score: 1, matched: new Set(['widow']) }, parseQuery('widow'))!;
    expect(widow.snippets[0]!.field).toBe('aliases');
    const kessel = resultOf({ doc: character, score: 1, matched: new Set(['kessel']) }, parseQuery('kessel'))!;
    expect(kessel.snippets[0]!.fieldLabel).toBe('Backstory');
    const event = eventDocument({ ...base, id: 'e1', title: 'The siege', description: 'Kessel falls.', eventType: 'plot', date: 'Year 3', bookId: null, chapterId: null, characterIds: [], locationId: null, importance: 'major', color: '#000000', position: 0, isPlotPoint: false } as unknown as TimelineEvent)!;
    expect(resultOf({ doc: event, score: 1, matched: new Set(['kessel']) }, parseQuery('kessel'))!.count).toBe(1);
  });

  it('deleted rows are no documents', () => {
    expect(chapterDocument(chapter('x', { deletedAt: '2026-02-01T00:00:00.000Z' }))).toBeNull();
  });
});

describe('grouping', () => {
  it('chapters by book in reading order, then the bible by kind, each with its count', () => {
    const docs = [chapter('Anne', { id: 'c2', position: 2 }), chapter('Anne Anne', { id: 'c1', position: 1 }), chapter('Anne', { id: 'c3', bookId: 'b2', position: 1 })].map((c) => chapterDocument(c)!);
    const results = docs.map((doc, i) => resultOf({ doc, score: 10 - i, matched: new Set(['anne']) }, parseQuery('anne'))!);
    const books: Record<string, { title: string; position: number }> = { b1: { title: 'Book One', position: 1 }, b2: { title: 'Book Two', position: 2 } };
    const groups = groupResults(results, { book: (id) => books[id] ?? null });
    expect(groups.map((g) => [g.label, g.count, g.results.map((r) => r.rowId)])).toEqual([
      ['Book One', 3, ['c1', 'c2']],
      ['Book Two', 1, ['c3']],
    ]);
  });
});
