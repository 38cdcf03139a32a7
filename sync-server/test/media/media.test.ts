/**
 * Pictures kept per series (src/media/, docs/decisions/0022-pictures-on-the-server.md), through the
 * whole app: uploads and their refusals, serving and its headers, roles, plans and the allowance,
 * removal and the sweep. Runs on SQLite and on PostgreSQL.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upgradeMessage } from '@chronicler/schema';
import { MEDIA_MESSAGES, pictureAllowanceBytes, pictureMaxBytes } from '@chronicler/schema/media';
import { GIF_HTML_POLYGLOT, HTML_FILE, SVG_FILE, WEBP_LOSSY, exifGpsSegment, jpegBytes, pngBytes, pngClaiming } from '@chronicler/schema/media/testing';
import { type SignedIn, createTestApp, createTestAppPair, json, signUp } from '../support/helpers.ts';
import { sweepUnusedPictures, UNUSED_PICTURE_GRACE_MS } from '../../src/media/sweep.ts';

const sha = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

let app: FastifyInstance;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ app, close } = await createTestApp());
});
afterAll(() => close());

async function newSeries(who: SignedIn, title = 'Saga'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/series', headers: who.headers, payload: { title, description: '', totalBooks: 1 } });
  expect(res.statusCode, res.body).toBe(201);
  return json(res).id as string;
}

function put(who: SignedIn | null, seriesId: string, bytes: Uint8Array, options: { type?: string; name?: string } = {}) {
  return app.inject({
    method: 'PUT',
    url: `/api/series/${seriesId}/media/${options.name ?? sha(bytes)}`,
    headers: { ...(who ? { cookie: who.cookie } : {}), 'content-type': options.type ?? 'image/png' },
    payload: Buffer.from(bytes),
  });
}

const get = (who: SignedIn, seriesId: string, hash: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/series/${seriesId}/media/${hash}`, headers: { cookie: who.cookie, ...headers } });

const del = (who: SignedIn, seriesId: string, hash: string) => app.inject({ method: 'DELETE', url: `/api/series/${seriesId}/media/${hash}`, headers: { cookie: who.cookie } });

async function joinAs(owner: SignedIn, seriesId: string, role: 'viewer' | 'editor'): Promise<SignedIn> {
  const who = await signUp(app, { email: `${role}_${crypto.randomUUID()}@example.com` });
  const sent = await app.inject({ method: 'POST', url: `/api/collaboration/series/${seriesId}/invites`, headers: owner.headers, payload: { inviteeEmail: who.user.email, role } });
  expect(sent.statusCode, sent.body).toBe(201);
  const accepted = await app.inject({ method: 'POST', url: `/api/collaboration/invites/${json(sent).id}/accept`, headers: { cookie: who.cookie } });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return who;
}

const countRows = async (table: 'mediaContent' | 'seriesMedia') =>
  Number((await app.deps.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('uploading and serving a picture', () => {
  it('keeps a picture once, answers 201 then 200 for the same upload, and serves it back as it was', async () => {
    const owner = await signUp(app, { plan: 'wordsmith' });
    const seriesId = await newSeries(owner);
    const picture = pngBytes({ width: 3, height: 2, rgb: [1, 2, 3] });
    const first = await put(owner, seriesId, picture);
    expect(first.statusCode, first.body).toBe(201);
    expect(json(first)).toEqual({ sha256: sha(picture), type: 'image/png', bytes: picture.length, width: 3, height: 2 });
    const before = [await countRows('mediaContent'), await countRows('seriesMedia')];
    const again = await put(owner, seriesId, picture, { type: 'image/webp' });
    expect(again.statusCode, again.body).toBe(200);
    expect(json(again)).toEqual(json(first));
    expect([await countRows('mediaContent'), await countRows('seriesMedia')]).toEqual(before);

    const served = await get(owner, seriesId, sha(picture));
    expect(served.statusCode).toBe(200);
    expect(new Uint8Array(served.rawPayload)).toEqual(picture);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'cache-control': 'private, max-age=31536000, immutable',
      etag: `"${sha(picture)}"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': 'inline',
    });
    const cached = await get(owner, seriesId, sha(picture), { 'if-none-match': `"${sha(picture)}"` });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect(cached.headers.etag).toBe(`"${sha(picture)}"`);
  });

  it('takes JPEG, WebP and GIF by their bytes and serves each with its sniffed type, whatever was declared', async () => {
    const owner = await signUp(app, { plan: 'wordsmith' });
    const seriesId = await newSeries(owner);
    for (const [bytes, type] of [[jpegBytes(), 'image/jpeg'], [WEBP_LOSSY, 'image/webp']] as const) {
      const res = await put(owner, seriesId, bytes, { type: 'image/gif' });
      expect(res.statusCode, res.body).toBe(201);
      expect((await get(owner, seriesId, sha(bytes))).headers['content-type']).toBe(type);
    }
  });

  it('keeps a picture used by two series of one owner once, and counts it once', async () => {
    const owner = await signUp(app, { plan: 'loremaster' });
    const [one, two] = [await newSeries(owner, 'One'), await newSeries(owner, 'Two')];
    const picture = pngBytes({ rgb: [9, 9, 9] });
    expect((await put(owner, one, picture)).statusCode).toBe(201);
    expect((await put(owner, two, picture)).statusCode).toBe(201);
    const stored = await app.deps.database.db.selectFrom('mediaContent').select('sha256').where('sha256', '=', sha(picture)).execute();
    expect(stored).toHaveLength(1);
    const usage = json(await app.inject({ method: 'GET', url: '/api/media/usage', headers: { cookie: owner.cookie } }));
    expect(usage).toEqual({ usedBytes: picture.length, allowanceBytes: pictureAllowanceBytes('loremaster'), perPictureBytes: pictureMaxBytes('loremaster') });
    // Removed from one, still served from the other; removed from both, the bytes go.
    expect((await del(owner, one, sha(picture))).statusCode).toBe(200);
    expect((await get(owner, one, sha(picture))).statusCode).toBe(404);
    expect((await get(owner, two, sha(picture))).statusCode).toBe(200);
    expect((await del(owner, two, sha(picture))).statusCode).toBe(200);
    expect(await app.deps.database.db.selectFrom('mediaContent').select('sha256').where('sha256', '=', sha(picture)).execute()).toEqual([]);
    expect((await del(owner, two, sha(picture))).statusCode).toBe(404);
  });
});

describe('several instances', () => {
  it('serve a picture another instance stored, and forget it once another removed it', async () => {
    const pair = await createTestAppPair();
    try {
      const [one, two] = pair.apps;
      const owner = await signUp(one, { plan: 'wordsmith' });
      const created = await one.inject({ method: 'POST', url: '/api/series', headers: owner.headers, payload: { title: 'Shared', description: '', totalBooks: 1 } });
      const seriesId = json(created).id as string;
      const picture = pngBytes({ rgb: [77, 88, 99] });
      const url = `/api/series/${seriesId}/media/${sha(picture)}`;
      const stored = await one.inject({ method: 'PUT', url, headers: { cookie: owner.cookie, 'content-type': 'image/png' }, payload: Buffer.from(picture) });
      expect(stored.statusCode).toBe(201);
      const served = await two.inject({ method: 'GET', url, headers: { cookie: owner.cookie } });
      expect(served.statusCode).toBe(200);
      expect(new Uint8Array(served.rawPayload)).toEqual(picture);
      expect((await one.inject({ method: 'DELETE', url, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
      // The bytes are still in the second instance's memory; who may read them is asked of the database.
      expect((await two.inject({ method: 'GET', url, headers: { cookie: owner.cookie } })).statusCode).toBe(404);
    } finally {
      await pair.close();
    }
  });
});

describe('who may see and change pictures', () => {
  it("answers another author's series and picture exactly as a missing one", async () => {
    const owner = await signUp(app, { plan: 'wordsmith' });
    const stranger = await signUp(app, { plan: 'wordsmith' });
    const seriesId = await newSeries(owner);
    const strangersSeries = await newSeries(stranger);
    const picture = pngBytes({ rgb: [200, 0, 0] });
    expect((await put(owner, seriesId, picture)).statusCode).toBe(201);
    const missing = await get(owner, seriesId, sha(pngBytes({ rgb: [0, 0, 1] })));
    expect(missing.statusCode).toBe(404);
    for (const answer of [
      await get(stranger, seriesId, sha(picture)),
      await get(stranger, strangersSeries, sha(picture)),
      await del(stranger, seriesId, sha(picture)),
      await put(stranger, seriesId, picture),
      await get(owner, seriesId, 'not-a-hash'),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe(missing.body);
    }
    expect((await get(owner, seriesId, sha(picture))).statusCode).toBe(200);
  });

  it('lets a viewer see pictures but not upload or remove them, and an editor do both', async () => {
    const owner = await signUp(app, { plan: 'loremaster' });
    const seriesId = await newSeries(owner);
    const viewer = await joinAs(owner, seriesId, 'viewer');
    const editor = await joinAs(owner, seriesId, 'editor');
    const picture = pngBytes({ rgb: [0, 200, 0] });
    const refused = await put(viewer, seriesId, picture);
    expect(refused.statusCode).toBe(403);
    expect(json(refused).code).toBe('FORBIDDEN');
    expect((await put(editor, seriesId, picture)).statusCode).toBe(201);
    expect((await get(viewer, seriesId, sha(picture))).statusCode).toBe(200);
    expect((await del(viewer, seriesId, sha(picture))).statusCode).toBe(403);
    expect((await del(editor, seriesId, sha(picture))).statusCode).toBe(200);
  });

  it("gates uploads on the owner's multimedia feature with the upgrade message; reading stays open", async () => {
    const owner = await signUp(app, { plan: 'wordsmith' });
    const seriesId = await newSeries(owner);
    const kept = pngBytes({ rgb: [5, 5, 5] });
    expect((await put(owner, seriesId, kept)).statusCode).toBe(201);
    await app.deps.database.db.updateTable('users').set({ plan: 'apprentice' }).where('id', '=', owner.user.id).execute();
    const refused = await put(owner, seriesId, pngBytes({ rgb: [6, 6, 6] }));
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toEqual({ code: 'FEATURE_LOCKED', message: upgradeMessage('wordsmith') });
    expect((await get(owner, seriesId, sha(kept))).statusCode).toBe(200);
    // A retried upload of a picture the series has stores nothing new: still answered.
    expect((await put(owner, seriesId, kept)).statusCode).toBe(200);
    expect((await del(owner, seriesId, sha(kept))).statusCode).toBe(200);
  });
});

describe('bad input', () => {
  let owner: SignedIn;
  let seriesId: string;
  beforeAll(async () => {
    owner = await signUp(app, { plan: 'wordsmith' });
    seriesId = await newSeries(owner);
  });

  const refusals: Array<[string, Uint8Array, number, string, string?]> = [
    ['an HTML page named .png', HTML_FILE, 415, MEDIA_MESSAGES.notAnImage],
    ['an SVG named .png', SVG_FILE, 415, MEDIA_MESSAGES.notAnImage],
    ['a GIF that is also an HTML page', GIF_HTML_POLYGLOT, 415, MEDIA_MESSAGES.polyglot, 'image/gif'],
    ['a JPEG with its EXIF GPS position', jpegBytes({ extraSegments: [exifGpsSegment()] }), 422, MEDIA_MESSAGES.containsMetadata, 'image/jpeg'],
    ['a 120-byte PNG claiming 50,000 × 50,000 pixels', pngClaiming(50_000, 50_000), 422, MEDIA_MESSAGES.tooManyPixels],
    ['a PNG cut short', pngBytes().subarray(0, 40), 422, MEDIA_MESSAGES.damaged],
  ];
  for (const [what, bytes, status, message, type] of refusals) {
    it(`refuses ${what} (${status}) and stores nothing`, async () => {
      const before = await countRows('mediaContent');
      const res = await put(owner, seriesId, bytes, { type: type ?? 'image/png' });
      expect(res.statusCode, res.body).toBe(status);
      expect(json(res).message).toBe(message);
      expect(await countRows('mediaContent')).toBe(before);
      expect((await get(owner, seriesId, sha(bytes))).statusCode).toBe(404);
    });
  }

  it('refuses bytes that are not the SHA-256 they are sent as (400), and a JSON or text body (415)', async () => {
    const picture = pngBytes({ rgb: [7, 7, 7] });
    const wrong = await put(owner, seriesId, picture, { name: sha(pngBytes({ rgb: [8, 8, 8] })) });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toBe(MEDIA_MESSAGES.hashMismatch);
    for (const type of ['application/json', 'text/html', 'image/svg+xml']) {
      const res = await put(owner, seriesId, picture, { type });
      expect(res.statusCode, type).toBe(415);
    }
  });

  it('refuses an upload another site sends (a picture type needs no JSON, but it is still a write)', async () => {
    const picture = pngBytes({ rgb: [31, 41, 59] });
    const res = await app.inject({
      method: 'PUT',
      url: `/api/series/${seriesId}/media/${sha(picture)}`,
      headers: { cookie: owner.cookie, 'content-type': 'image/png', 'sec-fetch-site': 'cross-site' },
      payload: Buffer.from(picture),
    });
    expect(res.statusCode).toBe(403);
    expect((await get(owner, seriesId, sha(picture))).statusCode).toBe(404);
  });

  it("refuses a body over the plan's per-picture size from its Content-Length", async () => {
    const res = await put(owner, seriesId, new Uint8Array(pictureMaxBytes('wordsmith') + 1));
    expect(res.statusCode).toBe(413);
    expect(json(res).message).toBe(MEDIA_MESSAGES.tooLarge(pictureMaxBytes('wordsmith')));
  });
});

describe('the allowance', () => {
  it('refuses an upload past it before storing anything, with what is used and what the plan keeps', async () => {
    const owner = await signUp(app, { plan: 'wordsmith' });
    const seriesId = await newSeries(owner);
    const { db } = app.deps.database;
    // A picture whose recorded size leaves 10 bytes of the allowance.
    const big = crypto.randomBytes(32).toString('hex');
    const now = new Date().toISOString();
    await db.insertInto('mediaContent').values({ sha256: big, type: 'image/png', bytes: pictureAllowanceBytes('wordsmith') - 10, width: 1, height: 1, data: new Uint8Array(1), createdAt: now }).execute();
    await db.insertInto('seriesMedia').values({ seriesId, sha256: big, uploadedBy: owner.user.id, touchedAt: now }).execute();
    const before = await countRows('mediaContent');
    const res = await put(owner, seriesId, pngBytes({ rgb: [1, 1, 1] }));
    expect(res.statusCode).toBe(403);
    expect(json(res)).toEqual({ code: 'PLAN_LIMIT', message: MEDIA_MESSAGES.storageFull(pictureAllowanceBytes('wordsmith'), pictureAllowanceBytes('wordsmith') - 10) });
    expect(await countRows('mediaContent')).toBe(before);
    // The picture the series has already is still answered (a retry after a lost answer).
    const usage = json(await app.inject({ method: 'GET', url: '/api/media/usage', headers: { cookie: owner.cookie } }));
    expect(usage.usedBytes).toBe(pictureAllowanceBytes('wordsmith') - 10);
  });

  it('lets only one of two concurrent uploads take the last room', async () => {
    const owner = await signUp(app, { plan: 'wordsmith' });
    const seriesId = await newSeries(owner);
    const [one, two] = [pngBytes({ rgb: [21, 0, 0] }), pngBytes({ rgb: [22, 0, 0] })];
    const { db } = app.deps.database;
    const filler = crypto.randomBytes(32).toString('hex');
    const now = new Date().toISOString();
    // Room for one of the two, not both.
    const room = one!.length + Math.floor(one!.length / 2);
    await db.insertInto('mediaContent').values({ sha256: filler, type: 'image/png', bytes: pictureAllowanceBytes('wordsmith') - room, width: 1, height: 1, data: new Uint8Array(1), createdAt: now }).execute();
    await db.insertInto('seriesMedia').values({ seriesId, sha256: filler, uploadedBy: owner.user.id, touchedAt: now }).execute();
    const answers = await Promise.all([put(owner, seriesId, one!), put(owner, seriesId, two!)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 403]);
  });

  it("counts the series owner's allowance when an editor uploads, and forgets a deleted series' pictures at once", async () => {
    const owner = await signUp(app, { plan: 'loremaster' });
    const seriesId = await newSeries(owner);
    const editor = await joinAs(owner, seriesId, 'editor');
    const picture = pngBytes({ rgb: [3, 1, 4] });
    expect((await put(editor, seriesId, picture)).statusCode).toBe(201);
    const usageOf = async (who: SignedIn) => json(await app.inject({ method: 'GET', url: '/api/media/usage', headers: { cookie: who.cookie } })).usedBytes;
    expect(await usageOf(owner)).toBe(picture.length);
    expect(await usageOf(editor)).toBe(0);
    expect((await app.inject({ method: 'DELETE', url: `/api/series/${seriesId}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    expect(await usageOf(owner)).toBe(0);
    expect((await get(owner, seriesId, sha(picture))).statusCode).toBe(404);
  });
});

describe('pictures nobody uses any more', () => {
  it('go a day after their last upload once no field names them; named and recent ones stay; a deleted series loses all', async () => {
    // An app of its own: the sweep looks at every series.
    await close();
    ({ app, close } = await createTestApp());
    const owner = await signUp(app, { plan: 'wordsmith' });
    const seriesId = await newSeries(owner);
    const [cover, portrait, thumb, loose] = [11, 12, 13, 14].map((n) => pngBytes({ rgb: [n, n, n] }));
    for (const picture of [cover!, portrait!, thumb!, loose!]) expect((await put(owner, seriesId, picture)).statusCode).toBe(201);
    await app.inject({ method: 'PUT', url: `/api/series/${seriesId}`, headers: owner.headers, payload: { coverImage: `media:${sha(cover!)}` } });
    const character = await app.inject({
      method: 'POST',
      url: '/api/characters',
      headers: owner.headers,
      payload: { seriesId, name: 'Ada', avatarUrl: `media:${sha(portrait!)}#thumb=${sha(thumb!)}` },
    });
    expect(character.statusCode, character.body).toBe(201);

    const soon = Date.now() + 60_000;
    const commits = app.deps.database.groupCommit.stats.commits;
    expect(await sweepUnusedPictures(app.deps.database, soon)).toEqual({ uses: 0, pictures: 0 });
    // Nothing due: nothing written (it runs at every start).
    expect(app.deps.database.groupCommit.stats.commits).toBe(commits);
    const later = Date.now() + UNUSED_PICTURE_GRACE_MS + 60_000;
    expect(await sweepUnusedPictures(app.deps.database, later)).toEqual({ uses: 1, pictures: 1 });
    expect((await get(owner, seriesId, sha(loose!))).statusCode).toBe(404);
    for (const picture of [cover!, portrait!, thumb!]) expect((await get(owner, seriesId, sha(picture))).statusCode).toBe(200);

    // Deleting the character lets its portrait and thumbnail go.
    expect((await app.inject({ method: 'DELETE', url: `/api/characters/${json(character).id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    expect(await sweepUnusedPictures(app.deps.database, later)).toEqual({ uses: 2, pictures: 2 });
    expect((await get(owner, seriesId, sha(cover!))).statusCode).toBe(200);

    // A deleted series loses every picture at the next sweep, recent or named.
    const other = await newSeries(owner, 'Other');
    const recent = pngBytes({ rgb: [15, 15, 15] });
    expect((await put(owner, other, recent)).statusCode).toBe(201);
    await app.inject({ method: 'DELETE', url: `/api/series/${other}`, headers: { cookie: owner.cookie } });
    expect(await sweepUnusedPictures(app.deps.database, Date.now())).toEqual({ uses: 1, pictures: 1 });
  });
});
