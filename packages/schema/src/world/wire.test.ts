import { describe, expect, it } from 'vitest';
import { planDeleteCascade, type CascadeRow } from '../delete-cascade.ts';
import { buildSeriesBible } from '../series-bible.ts';
import { manuscriptToMarkdown } from '../manuscript.ts';
import {
  WORLD_CATEGORIES,
  WORLD_CATEGORY_FIELDS,
  WORLD_FIELD_LABELS,
  type WorldEntry,
  createWorldEntryBodySchema,
  updateWorldEntryBodySchema,
  worldFieldProblem,
  worldUpdateProblem,
} from './wire.ts';

const series = '0190a6f0-0000-7000-8000-000000000001';
const entryId = '0190a6f0-0000-7000-8000-0000000000e1';
const other = '0190a6f0-0000-7000-8000-0000000000e2';
const hero = '0190a6f0-0000-7000-8000-0000000000c1';

function messages(result: { success: boolean; error?: { issues: readonly { message: string; path: readonly PropertyKey[] }[] } }) {
  return result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('a world entry body', () => {
  it('names the category in the message of an empty name, as the Location form does', () => {
    expect(messages(createWorldEntryBodySchema.safeParse({ seriesId: series, category: 'culture', name: '   ' }))).toEqual(['name: Culture name is required']);
    expect(messages(createWorldEntryBodySchema.safeParse({ seriesId: series, category: 'politics', name: '' }))).toEqual(['name: Faction name is required']);
    expect(messages(updateWorldEntryBodySchema.safeParse({ name: ' ' }))).toEqual(['name: Name is required']);
  });

  it('fills every field with its default, trims tags and drops repeats', () => {
    const body = createWorldEntryBodySchema.parse({ seriesId: series, category: 'magicSystem', name: ' Runecraft ', tags: [' old ', 'Old', '', 'war'], bookAppearances: [3, 1, 3] });
    expect(body).toMatchObject({ name: 'Runecraft', tags: ['old', 'war'], bookAppearances: [1, 3], danger: 'unknown', leaderId: null, characterIds: [], description: '' });
  });

  it("refuses another category's field with a message that says where it belongs", () => {
    expect(worldFieldProblem('culture', { habitat: 'Marshes' })).toEqual({ field: 'habitat', message: 'A culture has no habitat; it belongs to species' });
    expect(worldFieldProblem('floraFauna', { habitat: 'Marshes', danger: 'deadly' })).toBeNull();
    expect(worldFieldProblem('technology', { danger: 'unknown', leaderId: null, allyIds: [] })).toBeNull();
    expect(messages(createWorldEntryBodySchema.safeParse({ seriesId: series, category: 'technology', name: 'Loom', leaderId: hero }))).toEqual([
      'leaderId: A technology has no leader; it belongs to factions',
    ]);
  });

  it('refuses an entry that links to itself', () => {
    expect(messages(createWorldEntryBodySchema.safeParse({ id: entryId, seriesId: series, category: 'politics', name: 'Guild', allyIds: [entryId] }))).toEqual([
      'allyIds: An entry cannot link to itself',
    ]);
    expect(worldUpdateProblem({ id: entryId, category: 'culture' }, { entryIds: [other, entryId] })).toEqual({ field: 'entryIds', message: 'An entry cannot link to itself' });
    expect(worldUpdateProblem({ id: entryId, category: 'culture' }, { entryIds: [other] })).toBeNull();
  });

  it('labels every category field', () => {
    const fields = WORLD_CATEGORIES.flatMap((c) => Object.keys(WORLD_CATEGORY_FIELDS[c]));
    expect(fields.filter((f) => !WORLD_FIELD_LABELS[f])).toEqual([]);
  });
});

function entry(fields: Partial<WorldEntry> & Pick<WorldEntry, 'id' | 'category' | 'name'>): WorldEntry {
  return {
    ...createWorldEntryBodySchema.parse({ seriesId: series, category: fields.category, name: fields.name }),
    rev: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', deletedAt: null,
    ...fields,
  } as WorldEntry;
}

describe('the delete cascade of world entries', () => {
  const rows: Record<string, CascadeRow[]> = {
    worldEntries: [
      entry({ id: entryId, category: 'politics', name: 'Guild', leaderId: hero, characterIds: [hero], allyIds: [other] }),
      entry({ id: other, category: 'culture', name: 'Marsh folk', entryIds: [entryId] }),
    ],
  };
  const reader = {
    async liveWhere(kind: string, field: string, value: string) {
      return (rows[kind] ?? []).filter((r) => r[field] === value);
    },
  };

  it("takes a deleted character out of every entry's links and clears it as leader", async () => {
    const writes = await planDeleteCascade(reader as never, 'characters', { id: hero, seriesId: series });
    expect(writes).toEqual([
      { op: 'patch', kind: 'worldEntries', id: entryId, fields: { characterIds: [] } },
      { op: 'patch', kind: 'worldEntries', id: entryId, fields: { leaderId: null } },
    ]);
  });

  it('takes a deleted entry out of the entries that link to it', async () => {
    const writes = await planDeleteCascade(reader as never, 'worldEntries', rows.worldEntries![1]!);
    expect(writes).toEqual([{ op: 'patch', kind: 'worldEntries', id: entryId, fields: { allyIds: [] } }]);
  });
});

describe('world entries in the series bible', () => {
  it('lists each category with its fields and links by name, and leaves out links to what is gone', () => {
    const bible = buildSeriesBible({
      series: { title: 'Saltmere', description: '' },
      author: 'A',
      characters: [{ id: hero, name: 'Mara', deletedAt: null, role: 'protagonist', status: 'alive', bookAppearances: [], age: '', occupation: '', description: '', appearance: '', personality: '', goals: '', backstory: '' } as never],
      relationships: [],
      locations: [],
      events: [],
      worldEntries: [
        entry({ id: entryId, category: 'politics', name: 'The Guild', goals: 'Own the *salt*', leaderId: hero, allyIds: [other, '0190a6f0-0000-7000-8000-0000000000ff'] }),
        entry({ id: other, category: 'culture', name: 'Marsh folk', language: 'Reed-speech', tags: ['river'] }),
      ],
    });
    const markdown = manuscriptToMarkdown(bible);
    expect(markdown).toContain('Cultures');
    expect(markdown).toContain('Language: Reed-speech');
    expect(markdown).toContain('Goals: Own the *salt*');
    expect(markdown).toContain('Leader: Mara');
    expect(markdown).toContain('Allies: Marsh folk');
    expect(bible.books.map((b) => b.title)).not.toContain('Magic Systems');
  });
});
