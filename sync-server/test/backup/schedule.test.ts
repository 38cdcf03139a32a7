/**
 * Scheduled server backups with a clock: weekly, daily and real-time per plan, only
 * after changes, pruned to the plan's retention, listed, downloaded and restored by their author.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_MESSAGES, BACKUP_SCHEDULES, type BackupListResponse, type PlanName } from '@chronicler/schema';
import { runScheduledBackups } from '../../src/backup/snapshots.ts';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let dataDir: string;
beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-backups-'));
  t = await createTestApp({ dataDir });
});
afterEach(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const T0 = Date.parse('2026-11-02T09:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const run = (at: number) => runScheduledBackups({ db: t.app.deps.database.db, dataDir }, new Date(at));

async function author(plan: PlanName): Promise<StoryClient> {
  return storyClient(t.app, await signUp(t.app, { plan }));
}
async function snapshots(me: StoryClient): Promise<BackupListResponse> {
  return me.read('/api/backups');
}
async function edit(me: StoryClient, title: string): Promise<void> {
  await me.create('/api/series', { title });
}

describe('scheduled backups', () => {
  it('follow the plan: weekly, daily, and real-time after each change; never without a change', async () => {
    const apprentice = await author('apprentice');
    const wordsmith = await author('wordsmith');
    const legendary = await author('legendary');
    await author('legendary'); // writes nothing: gets no backups
    for (const a of [apprentice, wordsmith, legendary]) await edit(a, 'First');
    expect(await run(T0)).toBe(3);
    expect(await run(T0 + 2 * MINUTE)).toBe(0);

    await edit(legendary, 'Second');
    expect(await run(T0 + 30_000 + 2 * MINUTE)).toBe(1);
    expect((await snapshots(legendary)).snapshots.map((s) => s.reason)).toEqual(['realtime', 'realtime']);

    await edit(wordsmith, 'Draft');
    expect(await run(T0 + 23 * HOUR)).toBe(0);
    expect(await run(T0 + DAY)).toBe(1);

    await apprentice.put(`/api/series/${(await apprentice.read('/api/series'))[0].id}`, { title: 'Renamed' });
    expect(await run(T0 + 6 * DAY)).toBe(0);
    expect(await run(T0 + 7 * DAY)).toBe(1);
    const list = await snapshots(apprentice);
    expect(list).toMatchObject({ frequency: 'weekly', keep: BACKUP_SCHEDULES.weekly.keep });
    expect(list.snapshots.map((s) => s.createdAt)).toEqual([new Date(T0 + 7 * DAY).toISOString(), new Date(T0).toISOString()]);
  });

  it('take at most so many in one pass, longest-waiting first; the rest in the next pass', async () => {
    const first = await author('legendary');
    const second = await author('legendary');
    const third = await author('legendary');
    for (const a of [first, second, third]) await edit(a, 'First');
    const capped = (at: number) => runScheduledBackups({ db: t.app.deps.database.db, dataDir }, new Date(at), () => {}, 2);
    expect(await capped(T0)).toBe(2);
    expect(await capped(T0 + 2 * MINUTE)).toBe(1);
    const counts = await Promise.all([first, second, third].map(async (a) => (await snapshots(a)).snapshots.length));
    expect(counts).toEqual([1, 1, 1]);
    // All three changed again: the one served last goes first now, then those before it.
    for (const a of [first, second, third]) await edit(a, 'Again');
    expect(await capped(T0 + 4 * MINUTE)).toBe(2);
    const waiting = await Promise.all([first, second, third].map(async (a) => (await snapshots(a)).snapshots.length));
    expect(waiting.filter((n) => n === 2)).toHaveLength(2);
    expect(await capped(T0 + 6 * MINUTE)).toBe(1);
  });

  it('keep only the plan’s number of snapshots, deleting the older files', async () => {
    const legendary = await author('legendary');
    const keep = BACKUP_SCHEDULES.realtime.keep;
    for (let i = 0; i < keep + 2; i++) {
      await edit(legendary, `Series ${i}`);
      expect(await run(T0 + i * 2 * MINUTE)).toBe(1);
    }
    const list = (await snapshots(legendary)).snapshots;
    expect(list).toHaveLength(keep);
    expect(list.at(-1)!.createdAt).toBe(new Date(T0 + 2 * 2 * MINUTE).toISOString());
    // The pruned archives went with their snapshots (backup_archives), and nothing is left on disk.
    const archives = await t.app.deps.database.db.selectFrom('backupArchives').innerJoin('backupSnapshots', 'backupSnapshots.id', 'backupArchives.snapshotId').select('snapshotId').where('backupSnapshots.userId', '=', legendary.author.user.id).execute();
    expect(archives.map((a) => a.snapshotId).sort()).toEqual(list.map((s) => s.id).sort());
    expect(fs.existsSync(path.join(dataDir, 'backups'))).toBe(false);
  });

  it('are downloaded and restored by their author only', async () => {
    const me = await author('wordsmith');
    const stranger = await author('wordsmith');
    const series = await me.create('/api/series', { title: 'The Glass Kingdoms' });
    const book = await me.create('/api/books', { seriesId: series.id, title: 'The Salt Crown' });
    await me.create('/api/chapters', { bookId: book.id, title: 'One', content: '“Quoted” — text.' });
    await run(T0);
    const [snapshot] = (await snapshots(me)).snapshots;
    const download = await me.get(`/api/backups/${snapshot!.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(Object.keys(unzipSync(new Uint8Array(download.rawPayload)))).toContain('markdown/01 The Glass Kingdoms/01 The Salt Crown.md');

    expectError(await stranger.get(`/api/backups/${snapshot!.id}`), 404, 'NOT_FOUND', BACKUP_MESSAGES.snapshotNotFound);
    expectError(await stranger.post(`/api/backups/${snapshot!.id}/restore`, {}), 404, 'NOT_FOUND');
    expect(await stranger.read('/api/series')).toEqual([]);

    expect((await me.del(`/api/series/${series.id}`)).statusCode).toBe(200);
    expect(await me.read('/api/series')).toEqual([]);
    const restored = await me.post(`/api/backups/${snapshot!.id}/restore`, {});
    expect(restored.statusCode, restored.body).toBe(200);
    expect(json(restored).series).toEqual(['The Glass Kingdoms']);
    const [back] = await me.read('/api/series');
    const [chapter] = await me.read(`/api/books/${(await me.read(`/api/series/${back.id}/books`))[0].id}/chapters`);
    expect(chapter.content).toBe('“Quoted” — text.');
  });

  it('Back up now makes a snapshot at once, on every plan', async () => {
    const me = await author('apprentice');
    await edit(me, 'Mine');
    const res = await me.post('/api/backups', undefined);
    expect(res.statusCode, res.body).toBe(201);
    expect(json(res)).toMatchObject({ reason: 'manual' });
    expect((await snapshots(me)).snapshots).toHaveLength(1);
  });
});
