import { describe, expect, it } from 'vitest';
import { serverWorldEntry } from '@/test/fixtures';
import { NO_FILTERS, countOf, tagsInUse, visibleEntries } from './entries';
import { createBodyFromForm, emptyEntryForm, formFromEntry, updateBodyFromForm, validateEntryForm } from './entry-form';

const S = '0190a6f0-0000-7000-8000-000000000001';

describe('a world tab’s list', () => {
  const entries = [
    serverWorldEntry(S, 'culture', { name: 'Élan folk', description: 'They *sing*', tags: ['River'], bookAppearances: [2], updatedAt: '2026-01-05T00:00:00.000Z' }),
    serverWorldEntry(S, 'culture', { name: 'amber court', summary: 'Gold', tags: ['river', 'court'], updatedAt: '2026-01-09T00:00:00.000Z' }),
    serverWorldEntry(S, 'culture', { name: 'Bone clans', beliefs: 'The **dead** walk' }),
  ];

  it('searches names, summaries, tags and the visible words of the texts, ignoring case and accents', () => {
    expect(visibleEntries(entries, { ...NO_FILTERS, query: 'elan' }).map((e) => e.name)).toEqual(['Élan folk']);
    expect(visibleEntries(entries, { ...NO_FILTERS, query: 'sing' }).map((e) => e.name)).toEqual(['Élan folk']);
    expect(visibleEntries(entries, { ...NO_FILTERS, query: 'dead walk' }).map((e) => e.name)).toEqual(['Bone clans']);
    expect(visibleEntries(entries, { ...NO_FILTERS, query: 'court' }).map((e) => e.name)).toEqual(['amber court']);
  });

  it('sorts by name either way or by the last edit, and filters by tag and book', () => {
    expect(visibleEntries(entries, NO_FILTERS).map((e) => e.name)).toEqual(['amber court', 'Bone clans', 'Élan folk']);
    expect(visibleEntries(entries, { ...NO_FILTERS, sort: 'nameDesc' }).map((e) => e.name)).toEqual(['Élan folk', 'Bone clans', 'amber court']);
    expect(visibleEntries(entries, { ...NO_FILTERS, sort: 'updated' }).map((e) => e.name)[0]).toBe('amber court');
    expect(visibleEntries(entries, { ...NO_FILTERS, tag: 'RIVER' }).map((e) => e.name)).toEqual(['amber court', 'Élan folk']);
    expect(visibleEntries(entries, { ...NO_FILTERS, book: 2 }).map((e) => e.name)).toEqual(['Élan folk']);
    expect(tagsInUse(entries)).toEqual(['court', 'River']);
  });

  it('counts entries in words', () => {
    expect(countOf('politics', 1)).toBe('1 faction');
    expect(countOf('floraFauna', 10_000)).toBe('10,000 species');
  });
});

describe('the entry form', () => {
  it('needs a name, worded for the kind', () => {
    expect(validateEntryForm('technology', emptyEntryForm())).toEqual({ name: 'Technology name is required' });
    expect(validateEntryForm('technology', { ...emptyEntryForm(), name: 'Loom' })).toEqual({});
  });

  it("sends its kind's fields only, trimmed; an edit sends what changed", () => {
    const values = { ...emptyEntryForm(), name: ' Guild ', goals: 'Rule', leaderId: '', era: 'ignored', bookAppearances: [3, 1, 3] };
    const body = createBodyFromForm(S, 'politics', values);
    expect(body).toMatchObject({ seriesId: S, category: 'politics', name: 'Guild', goals: 'Rule', leaderId: null, bookAppearances: [1, 3] });
    expect(body).not.toHaveProperty('era');
    const stored = serverWorldEntry(S, 'politics', { name: 'Guild', goals: 'Rule' });
    expect(updateBodyFromForm(stored, { ...formFromEntry(stored), goals: 'Rule the coast', tags: ['sea'] })).toEqual({ goals: 'Rule the coast', tags: ['sea'] });
    expect(updateBodyFromForm(stored, formFromEntry(stored))).toEqual({});
  });
});
