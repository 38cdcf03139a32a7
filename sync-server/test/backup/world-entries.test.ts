/**
 * World entries in a backup (docs/decisions/0020-world-entries.md): entries and their links come
 * back, links to a later entry of the archive included, following remapped ids; the Markdown copy
 * of the series bible lists them; a plan without advanced world building cannot restore them.
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { json } from '../support/helpers.ts';
import { author, changes, download, restore, testServers } from '../support/backup-story.ts';

const server = testServers();

async function world(t: Awaited<ReturnType<typeof server>>) {
  const me = await author(t);
  const series = await me.create('/api/series', { title: 'The Salt Road' });
  const mara = await me.create('/api/characters', { seriesId: series.id, name: 'Mara' });
  const saltmere = await me.create('/api/locations', { seriesId: series.id, name: 'Saltmere' });
  const guild = await me.create('/api/world-entries', { seriesId: series.id, category: 'politics', name: 'Salt Guild', leaderId: mara.id, characterIds: [mara.id] });
  const folk = await me.create('/api/world-entries', { seriesId: series.id, category: 'culture', name: 'Reed folk', locationIds: [saltmere.id], entryIds: [guild.id] });
  // The guild, earlier in the archive, links the folk made after it.
  await me.put(`/api/world-entries/${guild.id}`, { allyIds: [folk.id], goals: 'Own the *coast*' });
  return me;
}

describe('world entries in a backup', () => {
  it('come back with their links, into another server and beside the originals on the same one', async () => {
    const t = await server();
    const archive = await download(await world(t));
    for (const target of [await author(await server()), await author(t)]) {
      const res = await restore(target, archive);
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res).counts.worldEntries).toMatchObject({ restored: 2, alreadyPresent: 0 });
      const feed = (await changes(target)).changes;
      const [mara] = feed.characters;
      const [saltmere] = feed.locations;
      const guild = feed.worldEntries.find((e) => e.name === 'Salt Guild')!;
      const folk = feed.worldEntries.find((e) => e.name === 'Reed folk')!;
      expect(guild).toMatchObject({ leaderId: mara!.id, characterIds: [mara!.id], allyIds: [folk.id], goals: 'Own the *coast*' });
      expect(folk).toMatchObject({ locationIds: [saltmere!.id], entryIds: [guild.id] });
    }
  });

  it('are in the Markdown series bible of the archive', async () => {
    const archive = unzipSync(await download(await world(await server())));
    const bible = Object.entries(archive).find(([name]) => name.endsWith('Series bible.md'))!;
    const text = strFromU8(bible[1]);
    expect(text).toContain('Politics');
    expect(text).toContain('Leader: Mara');
    expect(text).toContain('Allies: Reed folk');
  });

  it('need advanced world building to be restored', async () => {
    const archive = await download(await world(await server()));
    const apprentice = await author(await server(), 'apprentice');
    const res = await restore(apprentice, archive);
    expect(res.statusCode).toBe(403);
    expect(json(res).code).toBe('FEATURE_LOCKED');
  });
});
