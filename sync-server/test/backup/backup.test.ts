/**
 * Backup and restore over real SQLite and HTTP: the archive holds everything the author
 * owns with a readable Markdown copy; restoring it into a fresh account on a fresh server gives the
 * same data; restoring twice changes nothing; damaged archives are refused and change nothing.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BACKUP_MESSAGES } from '@chronicler/schema';
import { json } from '../support/helpers.ts';
import { expectError } from '../support/story-client.ts';
import { author, changes, download, picture, restore, seed, testServers } from '../support/backup-story.ts';

const server = testServers();

describe('backup download', () => {
  it('holds every owned series as JSON with checksums, and a readable Markdown copy', async () => {
    const t = await server();
    const me = await author(t, 'legendary', 'Ada Quill');
    const stranger = await author(t);
    await stranger.create('/api/series', { title: 'Not Mine' });
    await seed(me);
    const entries = unzipSync(await download(me));
    const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
    expect(manifest).toMatchObject({ format: 'chronicler-backup', version: 1, account: { displayName: 'Ada Quill' } });
    expect(manifest.counts).toMatchObject({ series: 2, books: 2, chapters: 3, characters: 2, characterRelationships: 1, locations: 1, timelineEvents: 1, canonChanges: 4 });
    expect(manifest.counts.chapterHistory).toBeGreaterThanOrEqual(1);
    const series = JSON.parse(strFromU8(entries['data/series.json']!)) as { title: string }[];
    expect(series.map((s) => s.title)).toEqual(['The Glass Kingdoms', 'Short Stories']);
    const book = strFromU8(entries['markdown/01 The Glass Kingdoms/01 The Salt Crown.md']!);
    expect(book).toContain('## Salt and Ash\n\nThe first paragraph.\n\n“Where’s the crown?” — gone.');
    expect(book.indexOf('Salt and Ash')).toBeLessThan(book.indexOf('The Harbour'));
    const bible = strFromU8(entries['markdown/01 The Glass Kingdoms/Series bible.md']!);
    expect(bible).toContain('### Mara and Ilse');
    expect(bible).toContain('The Iron Tide, Iron Rising: Status: Deceased (Under the crown)');
    expect(JSON.stringify(Object.values(entries).map((e) => strFromU8(e)))).not.toContain('Not Mine');
  });

  it('answers 401 without a session', async () => {
    const t = await server();
    expect((await t.app.inject({ method: 'GET', url: '/api/backup' })).statusCode).toBe(401);
  });
});

describe('restore', () => {
  it('into a fresh account on a fresh server gives equal data, history included; restoring twice changes nothing', async () => {
    const first = await server();
    const me = await author(first);
    await seed(me);
    const archive = await download(me);
    const before = await picture(me);

    const second = await server();
    const newcomer = await author(second);
    const res = await restore(newcomer, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).series).toEqual(['The Glass Kingdoms', 'Short Stories']);
    expect(json(res).counts.chapters).toEqual({ restored: 3, alreadyPresent: 0, remapped: 0 });
    const after = await picture(newcomer);
    expect(after).toEqual(before);
    expect(after.history['chapters#0']!.length).toBeGreaterThanOrEqual(1);
    // The statistics, achievements and settings came along (the comparison above holds them).
    expect(after.author.writingStats).toEqual([expect.objectContaining({ wordsPasted: 600, edits: 2 })]);
    expect(after.author.userAchievements.length).toBeGreaterThanOrEqual(1);
    expect(after.author.writingSettings).toEqual([expect.objectContaining({ dayEndHour: 3, restDays: [0], freezesPerMonth: 2, dailyGoal: 750 })]);
    expect(json(res).counts.writingStats).toEqual({ restored: 1, alreadyPresent: 0, remapped: 0 });

    // Every row as stored, revs included: a second restore writes none of them.
    const stored = (await changes(newcomer)).changes;
    const again = await restore(newcomer, archive);
    expect(again.statusCode, again.body).toBe(200);
    expect(json(again).counts.chapters).toEqual({ restored: 0, alreadyPresent: 3, remapped: 0 });
    expect(json(again).counts.writingEvents).toMatchObject({ restored: 0 });
    expect(json(again).counts.writingStats).toEqual({ restored: 0, alreadyPresent: 1, remapped: 0 });
    expect((await changes(newcomer)).changes).toEqual(stored);
    expect(await picture(newcomer)).toEqual(before);
  });

  it('into another account on the same server remaps the taken ids, once', async () => {
    const t = await server();
    const me = await author(t);
    await seed(me);
    const archive = await download(me);
    const before = await picture(me);
    const other = await author(t);
    const res = await restore(other, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.series).toEqual({ restored: 2, alreadyPresent: 0, remapped: 2 });
    expect(await picture(other)).toEqual(before);
    // The owner's rows are untouched, and a second restore adds nothing.
    expect(await picture(me)).toEqual(before);
    expect(json(await restore(other, archive)).counts.series).toEqual({ restored: 0, alreadyPresent: 2, remapped: 0 });
    expect((await other.read('/api/series')).length).toBe(2);
  });

  it('merges the author’s statistics, achievements and settings without counting anything twice', async () => {
    const t = await server();
    const me = await author(t);
    await seed(me);
    const archive = await download(me);
    const mine = await picture(me);
    type Day = { day: string; wordsWritten: number; wordsRemoved: number; wordsPasted: number; edits: number };
    const days = (p: { author: { writingStats: unknown[] } }) => p.author.writingStats as Day[];

    // Into its own account: every event is logged there already, so no figure moves.
    const own = await restore(me, archive);
    expect(own.statusCode, own.body).toBe(200);
    expect(json(own).counts.writingEvents).toMatchObject({ restored: 0 });
    expect(json(own).counts.userAchievements).toMatchObject({ restored: 0 });
    expect((await picture(me)).author).toEqual(mine.author);

    // Into an account that wrote the same day with settings of its own: the archive's words are
    // added to its day once, its settings stay, the archive's achievements are earned.
    const other = await author(t);
    const series = await other.create('/api/series', { title: 'Elsewhere' });
    const book = await other.create('/api/books', { seriesId: series.id, title: 'One' });
    const chapter = await other.create('/api/chapters', { bookId: book.id, title: 'Start', content: '' });
    expect((await other.put(`/api/chapters/${chapter.id}`, { content: 'Seven words of my very own here.' })).statusCode).toBe(200);
    expect((await other.put('/api/writing-settings', { dayEndHour: 5 })).statusCode).toBe(200);
    const [ownDay] = days(await picture(other));
    const [archivedDay] = days(mine);
    expect(ownDay!.day).toBe(archivedDay!.day);
    for (let i = 0; i < 2; i++) {
      expect((await restore(other, archive)).statusCode).toBe(200);
      const after = await picture(other);
      expect(days(after)).toEqual([
        {
          ...ownDay,
          wordsWritten: ownDay!.wordsWritten + archivedDay!.wordsWritten,
          wordsRemoved: ownDay!.wordsRemoved + archivedDay!.wordsRemoved,
          wordsPasted: ownDay!.wordsPasted + archivedDay!.wordsPasted,
          edits: ownDay!.edits + archivedDay!.edits,
        },
      ]);
      expect(after.author.writingSettings).toEqual([expect.objectContaining({ dayEndHour: 5, dailyGoal: null })]);
      const earned = (after.author.userAchievements as { achievementId: string }[]).map((a) => a.achievementId);
      expect(earned).toEqual(expect.arrayContaining((mine.author.userAchievements as { achievementId: string }[]).map((a) => a.achievementId)));
      expect(new Set(earned).size).toBe(earned.length);
    }
    // The owner's figures are untouched.
    expect((await picture(me)).author).toEqual(mine.author);
  });

  it('brings back a deleted series into the same account', async () => {
    const t = await server();
    const me = await author(t);
    const { series } = await seed(me);
    const archive = await download(me);
    expect((await me.del(`/api/series/${series.id}`)).statusCode).toBe(200);
    const res = await restore(me, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.series).toEqual({ restored: 1, alreadyPresent: 1, remapped: 1 });
    expect((await me.read('/api/series')).map((s: { title: string }) => s.title).sort()).toEqual(['Short Stories', 'The Glass Kingdoms']);
  });

  it('refuses truncated, edited, foreign and newer archives with a clear message, changing nothing', async () => {
    const t = await server();
    const me = await author(t);
    await seed(me);
    const archive = await download(me);
    const target = await author(t);
    const stored = (await changes(target)).changes;

    const entries = unzipSync(archive);
    const edited = { ...entries, 'data/chapters.json': strToU8(strFromU8(entries['data/chapters.json']!).replace('Gulls.', 'Gulls!')) };
    const newer = { ...entries, 'manifest.json': strToU8(strFromU8(entries['manifest.json']!).replace('"version": 1', '"version": 99')) };
    const cases: [string, Uint8Array, string][] = [
      ['truncated', archive.slice(0, Math.floor(archive.length * 0.6)), BACKUP_MESSAGES.damaged],
      ['edited', zipSync(edited), BACKUP_MESSAGES.damaged],
      ['not a zip', strToU8('hello'), BACKUP_MESSAGES.damaged],
      ['another zip', zipSync({ 'a.txt': strToU8('x') }), BACKUP_MESSAGES.damaged],
      ['newer', zipSync(newer), BACKUP_MESSAGES.newerVersion],
    ];
    for (const [label, bytes, message] of cases) {
      const res = await restore(target, bytes);
      expect(res.statusCode, label).toBe(422);
      expect(json(res).message, label).toBe(message);
    }
    expectError(await target.post('/api/backup/restore', { archive: '%%%' }), 422, 'VALIDATION_FAILED', BACKUP_MESSAGES.damaged);
    const text = Buffer.from(archive).toString('base64');
    const half = Math.floor(text.length / 2);
    expectError(await target.post('/api/backup/restore', { archive: `${text.slice(0, half)}!${text.slice(half + 1)}` }), 422, 'VALIDATION_FAILED', BACKUP_MESSAGES.damaged);
    expectError(await target.post('/api/backup/restore', { archive: '' }), 422, 'VALIDATION_FAILED', BACKUP_MESSAGES.empty);
    expect((await changes(target)).changes).toEqual(stored);
    expect(await target.read('/api/series')).toEqual([]);
  });

  it('follows the plan: an Apprentice cannot restore two series, and nothing is written', async () => {
    const t = await server();
    const me = await author(t);
    await seed(me);
    const archive = await download(me);
    const apprentice = await author(t, 'apprentice');
    const res = await restore(apprentice, archive);
    expect(res.statusCode, res.body).toBe(403);
    expect(['PLAN_LIMIT', 'FEATURE_LOCKED']).toContain(json(res).code);
    expect(await apprentice.read('/api/series')).toEqual([]);
  });
});
