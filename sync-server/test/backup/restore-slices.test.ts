/**
 * A restore is written in slices (src/backup/restore.ts), so it never holds the server for long
 * (no request holds the event loop or the database for more than ~100 ms): another
 * author's saves are answered while a big restore runs, and a restore stopped part-way is completed
 * by restoring the same archive again — ending exactly as a restore in one go.
 */
import { describe, expect, it } from 'vitest';
import { BACKUP_MESSAGES, newId } from '@chronicler/schema';
import { readArchive, writeArchive } from '../../src/backup/archive.ts';
import { restoreBackup } from '../../src/backup/restore.ts';
import { HttpError } from '../../src/http/errors.ts';
import { json, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';
import { author, changes, download, picture, restore, seed, testServers } from '../support/backup-story.ts';

const server = testServers();

/** The seeded author's archive with `extra` more chapters of `words` words each in its first book. */
async function enlarged(archive: Uint8Array, extra: number, words: number): Promise<Uint8Array> {
  const { account, ...data } = await readArchive(archive);
  const chapters = data.rows.chapters!;
  const model = chapters[0]!;
  const text = Array.from({ length: words }, (_, i) => (i % 12 === 11 ? 'word.\n\n' : `word${i % 97}`)).join(' ');
  for (let i = 0; i < extra; i++) chapters.push({ ...model, id: newId(), title: `Added ${i}`, content: text, position: 100 + i });
  return writeArchive(data, account, new Date());
}

describe('restore in slices', () => {
  it('answers another author’s saves while a big restore runs', async () => {
    const t = await server();
    const me = await author(t);
    await seed(me);
    const archive = await enlarged(await download(me), 400, 600);
    const newcomer = await author(t);
    const other = await author(t);
    const own = await other.create('/api/series', { title: 'Elsewhere' });

    let restoring = true;
    const answeredDuring: number[] = [];
    const probe = (async () => {
      for (let n = 0; restoring; n++) {
        const res = await other.put(`/api/series/${own.id}`, { description: `save ${n}` });
        expect(res.statusCode, res.body).toBe(200);
        if (restoring) answeredDuring.push(n);
        console.log('probe', n, performance.now().toFixed(0));
      }
    })();
    console.log('restore start', performance.now().toFixed(0));
    const res = await restore(newcomer, archive);
    console.log('restore end', performance.now().toFixed(0));
    restoring = false;
    await probe;
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.chapters).toMatchObject({ restored: 403 });
    // In one all-or-nothing write, the saves queue behind the whole restore (one or two get through).
    expect(answeredDuring.length).toBeGreaterThanOrEqual(5);
    expect((await changes(newcomer)).changes.chapters).toHaveLength(403);
  });

  it('stopped part-way, is completed by restoring the same archive again: equal to a restore in one go', async () => {
    const t = await server();
    const me = await author(t);
    await seed(me);
    const archive = await download(me);

    const once = await author(t);
    expect((await restore(once, archive)).statusCode).toBe(200);
    const expected = await picture(once);

    const signedIn = await signUp(t.app, { plan: 'legendary' });
    const twice = storyClient(t.app, signedIn);
    // One slice per few rows, the third slice the last: series, books and chapters written, the rest not.
    const stop = (slices: number) => {
      if (slices === 3) throw new Error('the server stopped');
    };
    const interrupted = restoreBackup(t.app.deps, signedIn.user.id, await readArchive(archive), { sliceMs: 0, afterSlice: stop });
    await expect(interrupted).rejects.toEqual(new HttpError(503, 'INTERNAL', BACKUP_MESSAGES.interrupted));
    const part = (await changes(twice)).changes;
    expect(part.series).toHaveLength(2);
    expect(part.chapters).toHaveLength(3);
    expect(part.characters).toHaveLength(0);
    expect(part.writingStats).toHaveLength(0);

    const again = await restore(twice, archive);
    expect(again.statusCode, again.body).toBe(200);
    expect(json(again).counts.chapters).toEqual({ restored: 0, alreadyPresent: 3, remapped: 0 });
    expect(json(again).counts.characters).toMatchObject({ restored: 2, alreadyPresent: 0 });
    expect(await picture(twice)).toEqual(expected);
  });
});
