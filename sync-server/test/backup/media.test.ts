/**
 * Backups carry the series' pictures (src/backup/collect.ts, archive.ts, restore-media.ts;
 * docs/decisions/0022-pictures-on-the-server.md): the archive holds them by their SHA-256, a restore
 * on a fresh server brings them back to the restored series, a picture listed without its bytes is
 * taken from the server that still has it, and an archive whose picture is not a clean picture is
 * refused whole.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BACKUP_MESSAGES } from '@chronicler/schema';
import { HTML_FILE, jpegBytes, pngBytes } from '@chronicler/schema/media/testing';
import { json } from '../support/helpers.ts';
import type { StoryClient } from '../support/story-client.ts';
import { author, download, restore, testServers } from '../support/backup-story.ts';

const server = testServers();
const sha = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The app each author's requests go to (a story client sends JSON only). */
const appOf = new WeakMap<StoryClient, FastifyInstance>();

async function upload(me: StoryClient, seriesId: string, bytes: Uint8Array, type: string): Promise<void> {
  const put = await appOf.get(me)!.inject({
    method: 'PUT',
    url: `/api/series/${seriesId}/media/${sha(bytes)}`,
    headers: { cookie: me.author.cookie, 'content-type': type },
    payload: Buffer.from(bytes),
  });
  expect(put.statusCode, put.body).toBe(201);
}

/** An author with a series whose cover and whose character's portrait are pictures. */
async function illustrated(t: Awaited<ReturnType<typeof server>>) {
  const me = await author(t, 'wordsmith');
  appOf.set(me, t.app);
  const cover = pngBytes({ width: 4, height: 6, rgb: [120, 30, 60] });
  const portrait = jpegBytes({ width: 16, height: 16 });
  const series = await me.create('/api/series', { title: 'Painted Shores' });
  await upload(me, series.id, cover, 'image/png');
  await upload(me, series.id, portrait, 'image/jpeg');
  expect((await me.put(`/api/series/${series.id}`, { coverImage: `media:${sha(cover)}` })).statusCode).toBe(200);
  await me.create('/api/characters', { seriesId: series.id, name: 'Mara', avatarUrl: `media:${sha(portrait)}` });
  return { me, series, cover, portrait };
}

describe('pictures in backups', () => {
  it('are in the archive by their SHA-256, listed per series, stored as they are', async () => {
    const t = await server();
    const { me, series, cover, portrait } = await illustrated(t);
    const entries = unzipSync(await download(me));
    expect(entries[`media/${sha(cover)}`]).toEqual(cover);
    expect(entries[`media/${sha(portrait)}`]).toEqual(portrait);
    const listed = JSON.parse(strFromU8(entries['data/media.json']!)) as Array<{ seriesId: string; sha256: string; type: string }>;
    expect(listed.map((m) => [m.seriesId, m.sha256, m.type]).sort()).toEqual(
      [[series.id, sha(cover), 'image/png'], [series.id, sha(portrait), 'image/jpeg']].sort(),
    );
    expect(JSON.parse(strFromU8(entries['manifest.json']!)).counts.media).toBe(2);
  });

  it('come back with a restore on a fresh server, to the restored series, and a second restore changes nothing', async () => {
    const first = await server();
    const { me, cover, portrait } = await illustrated(first);
    const archive = await download(me);

    const second = await server();
    const newcomer = await author(second, 'wordsmith');
    const res = await restore(newcomer, archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.media).toEqual({ restored: 2, alreadyPresent: 0, remapped: 0 });
    const [restored] = await newcomer.read('/api/series');
    expect(restored.coverImage).toBe(`media:${sha(cover)}`);
    for (const bytes of [cover, portrait]) {
      const got = await newcomer.get(`/api/series/${restored.id}/media/${sha(bytes)}`);
      expect(got.statusCode).toBe(200);
      expect(new Uint8Array(got.rawPayload)).toEqual(bytes);
    }
    const again = await restore(newcomer, archive);
    expect(json(again).counts.media).toEqual({ restored: 0, alreadyPresent: 2, remapped: 0 });
  });

  it('listed without their bytes are taken from the server that still has them; into another account the series is remapped', async () => {
    const t = await server();
    const { me, cover, portrait } = await illustrated(t);
    const entries = unzipSync(await download(me));
    delete entries[`media/${sha(portrait)}`];
    const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
    delete manifest.files[`media/${sha(portrait)}`];
    entries['manifest.json'] = strToU8(JSON.stringify(manifest));
    const other = await author(t, 'wordsmith');
    const res = await restore(other, zipSync(entries));
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).counts.media).toEqual({ restored: 2, alreadyPresent: 0, remapped: 2 });
    const [theirs] = await other.read('/api/series');
    for (const bytes of [cover, portrait]) expect((await other.get(`/api/series/${theirs.id}/media/${sha(bytes)}`)).statusCode).toBe(200);
  });

  it('refuses, changing nothing, an archive whose picture is an HTML page under its own hash', async () => {
    const t = await server();
    const { me } = await illustrated(t);
    const entries = unzipSync(await download(me));
    const name = `media/${sha(HTML_FILE)}`;
    entries[name] = new Uint8Array(HTML_FILE);
    const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
    manifest.files[name] = { sha256: sha(HTML_FILE), bytes: HTML_FILE.length };
    const listed = JSON.parse(strFromU8(entries['data/media.json']!));
    listed.push({ ...listed[0], sha256: sha(HTML_FILE), type: 'image/png' });
    entries['data/media.json'] = strToU8(JSON.stringify(listed));
    manifest.files['data/media.json'] = { sha256: sha(entries['data/media.json']), bytes: entries['data/media.json'].length };
    entries['manifest.json'] = strToU8(JSON.stringify(manifest));
    const newcomer = await author(t, 'wordsmith');
    const res = await restore(newcomer, zipSync(entries));
    expect(res.statusCode).toBe(422);
    expect(json(res).message).toBe(BACKUP_MESSAGES.damaged);
    expect(await newcomer.read('/api/series')).toEqual([]);
  });
});
