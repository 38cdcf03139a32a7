/**
 * A chapter's synopsis and notes in the backup archive (docs/server.md#backups): in its rows and in
 * the readable series bible, restored as they were, and an archive made before they existed
 * restores with them empty.
 */
import crypto from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { json } from '../support/helpers.ts';
import { author, download, restore, seed, testServers } from '../support/backup-story.ts';

const server = testServers();

type ChapterRow = { title: string; synopsis?: string; notes?: string };

describe('synopsis and notes in a backup', () => {
  it('are in the rows and the series bible, and a restore into a fresh account gives them back', async () => {
    const me = await author(await server());
    await seed(me);
    const archive = await download(me);
    const entries = unzipSync(archive);
    const rows = JSON.parse(strFromU8(entries['data/chapters.json']!)) as ChapterRow[];
    expect(rows.find((c) => c.title === 'Salt and Ash')).toMatchObject({ synopsis: 'Mara finds the *map*.', notes: 'Check the **tide** tables.\nAnd the moon.' });
    const bible = strFromU8(entries['markdown/01 The Glass Kingdoms/Series bible.md']!);
    expect(bible).toContain('Salt and Ash');
    expect(bible).toMatch(/Synopsis: Mara finds the/);

    const newcomer = await author(await server());
    const res = await restore(newcomer, archive);
    expect(res.statusCode, res.body).toBe(200);
    const restored = (await newcomer.read('/api/sync/changes?since=0&limit=10000')).changes.chapters as ChapterRow[];
    expect(restored.find((c) => c.title === 'Salt and Ash')).toMatchObject({ synopsis: 'Mara finds the *map*.', notes: 'Check the **tide** tables.\nAnd the moon.' });
    expect(restored.find((c) => c.title === 'The Harbour')).toMatchObject({ synopsis: '', notes: '' });
  });

  it('restore as empty from an archive made before chapters had them', async () => {
    const me = await author(await server());
    await seed(me);
    const entries = unzipSync(await download(me));
    const rows = JSON.parse(strFromU8(entries['data/chapters.json']!)) as ChapterRow[];
    const older = strToU8(JSON.stringify(rows.map(({ synopsis: _s, notes: _n, ...rest }) => rest)));
    const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
    manifest.files['data/chapters.json'] = { sha256: crypto.createHash('sha256').update(older).digest('hex'), bytes: older.length };
    const archive = zipSync({ ...entries, 'data/chapters.json': older, 'manifest.json': strToU8(JSON.stringify(manifest)) });

    const newcomer = await author(await server());
    const res = await restore(newcomer, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.chapters).toMatchObject({ restored: 3 });
    const restored = (await newcomer.read('/api/sync/changes?since=0&limit=10000')).changes.chapters as ChapterRow[];
    expect(restored.map((c) => [c.synopsis, c.notes])).toEqual([['', ''], ['', ''], ['', '']]);
  });
});
