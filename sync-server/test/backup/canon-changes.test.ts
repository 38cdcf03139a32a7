/**
 * Canon changes in a backup (docs/decisions/0017-canon-changes.md): a change whose chapter was
 * deleted comes back unanchored (no chapter), never dropped; an archive whose change names an
 * entity it does not hold, or one of another kind, is damaged.
 */
import crypto from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BACKUP_MESSAGES } from '@chronicler/schema';
import { json } from '../support/helpers.ts';
import { author, changes, download, restore, testServers } from '../support/backup-story.ts';

const server = testServers();

async function storyWithChanges() {
  const t = await server();
  const me = await author(t);
  const series = await me.create('/api/series', { title: 'The Salt Road' });
  const book = await me.create('/api/books', { seriesId: series.id, title: 'One' });
  const kept = await me.create('/api/chapters', { bookId: book.id, title: 'Kept' });
  const cut = await me.create('/api/chapters', { bookId: book.id, title: 'Cut' });
  const mara = await me.create('/api/characters', { seriesId: series.id, name: 'Mara' });
  const at = { seriesId: series.id, entityKind: 'character', entityId: mara.id, bookId: book.id };
  await me.create('/api/canon-changes', { ...at, field: 'status', value: 'missing', chapterId: kept.id });
  await me.create('/api/canon-changes', { ...at, field: 'status', value: 'deceased', chapterId: cut.id, note: 'Cut scene' });
  expect((await me.del(`/api/chapters/${cut.id}`)).statusCode).toBe(200);
  return { me, kept, mara };
}

/** The archive with `data/canonChanges.json` rewritten (the manifest's checksum made again). */
function rewritten(archive: Uint8Array, change: (rows: Record<string, unknown>[]) => void): Uint8Array {
  const entries = unzipSync(archive);
  const rows = JSON.parse(strFromU8(entries['data/canonChanges.json']!)) as Record<string, unknown>[];
  change(rows);
  entries['data/canonChanges.json'] = strToU8(JSON.stringify(rows));
  const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
  manifest.files['data/canonChanges.json'] = { ...manifest.files['data/canonChanges.json'], sha256: sha256(entries['data/canonChanges.json']!), bytes: entries['data/canonChanges.json']!.length };
  entries['manifest.json'] = strToU8(JSON.stringify(manifest));
  return zipSync(entries);
}
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('canon changes in a backup', () => {
  it('come back into another account, the one of a deleted chapter unanchored', async () => {
    const { me } = await storyWithChanges();
    const archive = await download(me);
    const other = await author(await server());
    const res = await restore(other, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.canonChanges).toEqual({ restored: 2, alreadyPresent: 0, remapped: 0 });
    const feed = (await changes(other)).changes;
    const [kept] = feed.chapters;
    const [mara] = feed.characters;
    expect(feed.canonChanges.map((c) => [c.value, c.chapterId, c.entityId]).sort()).toEqual([
      ['deceased', null, mara!.id],
      ['missing', kept!.id, mara!.id],
    ]);
  });

  it('refuse an archive whose change names an entity it does not hold, or names it as another kind', async () => {
    const { me, kept } = await storyWithChanges();
    const archive = await download(me);
    const target = await author(await server());
    const cases: [string, Uint8Array][] = [
      ['another kind', rewritten(archive, (rows) => rows.forEach((row) => (row.entityKind = 'location')))],
      ['an unknown kind', rewritten(archive, (rows) => rows.forEach((row) => (row.entityKind = 'dragon')))],
      ['a row it does not hold', rewritten(archive, (rows) => rows.forEach((row) => (row.entityId = kept.id)))],
    ];
    for (const [label, bytes] of cases) {
      const res = await restore(target, bytes);
      expect(res.statusCode, label).toBe(422);
      expect(json(res).message, label).toBe(BACKUP_MESSAGES.damaged);
    }
    expect(await target.read('/api/series')).toEqual([]);
  });
});
