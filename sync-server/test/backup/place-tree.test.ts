/**
 * Places inside places in a backup (docs/decisions/0021-places-inside-places.md): a restore keeps
 * the nesting, whatever order the archive lists the places in and when their ids had to change; a
 * parent the archive does not hold leaves the place at the top level, and so does a cycle in a
 * damaged archive.
 */
import crypto from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { json } from '../support/helpers.ts';
import { author, changes, download, restore, testServers } from '../support/backup-story.ts';
import type { StoryClient } from '../support/story-client.ts';

const server = testServers();
const FILE = 'data/locations.json';

type Row = Record<string, unknown>;

/** The archive with its places rewritten (the manifest's checksum made again). */
function rewritten(archive: Uint8Array, change: (rows: Row[]) => Row[]): Uint8Array {
  const entries = unzipSync(archive);
  entries[FILE] = strToU8(JSON.stringify(change(JSON.parse(strFromU8(entries[FILE]!)) as Row[])));
  const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
  manifest.files[FILE] = { ...manifest.files[FILE], sha256: crypto.createHash('sha256').update(entries[FILE]!).digest('hex'), bytes: entries[FILE]!.length };
  entries['manifest.json'] = strToU8(JSON.stringify(manifest));
  return zipSync(entries);
}

/** Each live place's name → the name of the place it is inside (null at the top level), from the feed. */
async function nesting(me: StoryClient): Promise<Record<string, string | null>> {
  const places = (await changes(me)).changes.locations.filter((l) => l.deletedAt === null);
  const names = new Map(places.map((l) => [l.id, l.name]));
  return Object.fromEntries(places.map((l) => [l.name, l.parentId === null ? null : (names.get(l.parentId) ?? `missing ${l.parentId}`)]));
}

async function nestedWorld() {
  const me = await author(await server());
  const series = await me.create('/api/series', { title: 'Earthsea' });
  const make = (name: string, parentId: string | null = null) => me.create('/api/locations', { seriesId: series.id, name, parentId });
  const earthsea = await make('Earthsea');
  const archipelago = await make('Archipelago', earthsea.id);
  const roke = await make('Roke', archipelago.id);
  await make('The School', roke.id);
  await make('Kargad Lands');
  return { me, series, earthsea, archipelago, roke };
}

const EXPECTED = { Earthsea: null, Archipelago: 'Earthsea', Roke: 'Archipelago', 'The School': 'Roke', 'Kargad Lands': null };

describe('places inside places in a backup', () => {
  it('come back nested into another account, even with children listed before their parents', async () => {
    const { me } = await nestedWorld();
    const archive = rewritten(await download(me), (rows) => [...rows].reverse());
    const other = await author(await server());
    const res = await restore(other, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.locations).toEqual({ restored: 5, alreadyPresent: 0, remapped: 0 });
    expect(await nesting(other)).toEqual(EXPECTED);
  });

  it('keep their nesting when the ids had to change (the same places deleted here first), and a second restore adds nothing', async () => {
    const { me, series, earthsea, archipelago, roke } = await nestedWorld();
    const archive = await download(me);
    for (const place of [roke, archipelago, earthsea]) expect((await me.del(`/api/locations/${place.id}`)).statusCode).toBe(200);
    expect(await nesting(me)).toEqual({ 'The School': null, 'Kargad Lands': null });
    expect((await me.del(`/api/series/${series.id}`)).statusCode).toBe(200);

    const res = await restore(me, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.locations).toMatchObject({ restored: 5, remapped: 5 });
    expect(await nesting(me)).toEqual(EXPECTED);
    const again = await restore(me, archive);
    expect(json(again).counts.locations).toEqual({ restored: 0, alreadyPresent: 5, remapped: 0 });
    expect(await nesting(me)).toEqual(EXPECTED);
  });

  it('a parent the archive does not hold, or a cycle in a damaged archive: those places come back at the top level', async () => {
    const { me, archipelago } = await nestedWorld();
    const withoutParent = rewritten(await download(me), (rows) => rows.filter((r) => r.id !== archipelago.id));
    const other = await author(await server());
    expect((await restore(other, withoutParent)).statusCode).toBe(200);
    expect(await nesting(other)).toEqual({ Earthsea: null, Roke: null, 'The School': 'Roke', 'Kargad Lands': null });

    const looping = rewritten(await download(me), (rows) => {
      const id = (name: string) => rows.find((r) => r.name === name)!.id;
      return rows.map((r) => (r.name === 'Earthsea' ? { ...r, parentId: id('Roke') } : r));
    });
    const third = await author(await server());
    expect((await restore(third, looping)).statusCode).toBe(200);
    expect(await nesting(third)).toEqual({ Earthsea: null, Archipelago: null, Roke: null, 'The School': 'Roke', 'Kargad Lands': null });
  });
});
