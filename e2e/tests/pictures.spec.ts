/**
 * Pictures an author keeps (docs/decisions/0023-pictures-on-the-device.md): a series cover and a
 * character portrait chosen and cropped offline show at once and after an offline reload; back
 * online they upload, and the author's second device shows them; a viewer of the series sees them
 * and has nothing to change them with. Needs the server's picture routes.
 */
import { deflateSync } from 'node:zlib';
import { type APIRequestContext, type Browser, type BrowserContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, setPlan, signInViaApi, signUpViaApi, uniqueUsername, waitForServiceWorkerControl } from '../support';

test.use({ viewport: { width: 1280, height: 860 } });

async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 860 } });
}

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(path) : await request.post(path, { data });
  expect(res.ok(), `${method} ${path} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A real PNG of a diagonal gradient (as a phone's photo would be, minus the megapixels). */
function gradientPng(width: number, height: number, hue: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = (x * 255) / width;
      row[2 + x * 3] = (y * 255) / height;
      row[3 + x * 3] = hue;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

const seriesCard = (page: Page, title: string) => page.getByTestId('series-card').filter({ hasText: title });
/** The cover's thumbnail on the series card, drawn from the device (an object URL). */
const cardCover = (page: Page, title: string) => seriesCard(page, title).locator('img[src^="blob:"]');
const characterCard = (page: Page, name: string) => page.getByRole('article', { name });
/** The portrait's thumbnail on the character's card (the avatar), from the device. */
const portrait = (page: Page, name: string) => characterCard(page, name).locator('img[src^="blob:"]');

async function cropAndUse(page: Page, shape: 'cover' | 'portrait'): Promise<void> {
  const stage = page.getByRole('group', { name: `Crop the ${shape}` });
  await expect(stage).toBeVisible({ timeout: 20_000 });
  await stage.focus();
  await page.keyboard.press('+');
  await page.keyboard.press('ArrowRight');
  await page.getByRole('button', { name: 'Use picture' }).click();
  await expect(stage).toBeHidden();
}

test('a cover and a portrait chosen offline stay after an offline reload, upload when online, reach a second device and a viewer', async ({ browser }) => {
  test.setTimeout(240_000);
  const ownerCtx = await newContext(browser);
  const page = await ownerCtx.newPage();
  const mail = (who: string) => `${uniqueUsername(who)}@example.com`;
  const owner = await signUpViaApi(page, { displayName: 'Pia Painter', email: mail('owner') });
  // Loremaster: pictures (multimedia) and collaboration.
  await setPlan(owner.username, 'loremaster', page);
  const title = `The Painted Coast ${uniqueUsername('s')}`;
  const series = await api<{ id: string }>(page.request, 'POST', '/api/series', { title, description: 'Harbours and lighthouses', totalBooks: 3, currentBook: 1, coverImage: null });
  await api(page.request, 'POST', '/api/characters', { seriesId: series.id, name: 'Nerys Hale', role: 'protagonist', isProtagonist: true });

  await page.goto('/series');
  await expect(seriesCard(page, title)).toBeVisible({ timeout: 30_000 });
  await waitForServiceWorkerControl(page);
  await page.goto('/characters');
  await expect(characterCard(page, 'Nerys Hale')).toBeVisible({ timeout: 30_000 });

  // Offline: the cover.
  await goOffline(ownerCtx);
  await page.goto('/series');
  await seriesCard(page, title).getByRole('button', { name: `Actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Edit Series' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Series' });
  await edit.getByLabel('Choose a picture file for the cover').setInputFiles({ name: 'coast.png', mimeType: 'image/png', buffer: gradientPng(900, 700, 40) });
  await cropAndUse(page, 'cover');
  await expect(edit.getByRole('img', { name: 'Cover preview' })).toBeVisible();
  await expect(edit.getByTestId('picture-on-device')).toBeVisible();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(cardCover(page, title)).toBeVisible();
  // The thumbnail the browser made: the cover's 2:3 at 320 px on its long side, and WebP pictures
  // waiting on the device for the network (raw IndexedDB: the app's own database).
  expect(
    await cardCover(page, title).evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    }),
  ).toEqual({ width: 213, height: 320 });
  const kept = await page.evaluate(
    (userId) =>
      new Promise<{ type: string; uploaded: number }[]>((resolve, reject) => {
        const open = indexedDB.open(`chronicler-${userId}`);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('pictures').objectStore('pictures').getAll();
          all.onsuccess = () => resolve((all.result as { type: string; uploaded: number }[]).map(({ type, uploaded }) => ({ type, uploaded })));
        };
      }),
    owner.id,
  );
  expect(kept).toEqual([
    { type: 'image/webp', uploaded: 0 },
    { type: 'image/webp', uploaded: 0 },
  ]);

  // Offline: the portrait.
  await page.goto('/characters');
  await page.getByRole('button', { name: 'View details of Nerys Hale' }).click();
  const character = page.getByRole('dialog', { name: 'Edit Character' });
  await character.getByLabel('Choose a picture file for the portrait').setInputFiles({ name: 'nerys.png', mimeType: 'image/png', buffer: gradientPng(600, 800, 200) });
  await cropAndUse(page, 'portrait');
  await character.getByRole('button', { name: 'Save Changes' }).click();
  await expect(character).toBeHidden();
  await expect(portrait(page, 'Nerys Hale')).toBeVisible();

  // An offline reload: both still there, from the device.
  await page.reload();
  await expect(portrait(page, 'Nerys Hale')).toBeVisible({ timeout: 20_000 });
  await page.goto('/series');
  await expect(cardCover(page, title)).toBeVisible({ timeout: 20_000 });

  // Online: the pictures upload and the fields sync.
  await goOnline(ownerCtx);
  const coverOf = async () => (await api<{ coverImage: string | null }>(page.request, 'GET', `/api/series/${series.id}`)).coverImage ?? '';
  await expect.poll(coverOf, { timeout: 30_000 }).toMatch(/^media:[0-9a-f]{64}#thumb=[0-9a-f]{64}$/);
  const [, display, thumb] = /^media:([0-9a-f]{64})#thumb=([0-9a-f]{64})$/.exec(await coverOf())!;
  for (const sha of [display!, thumb!]) {
    await expect.poll(async () => (await page.request.get(`/api/series/${series.id}/media/${sha}`)).status(), { timeout: 30_000 }).toBe(200);
  }
  const served = await page.request.get(`/api/series/${series.id}/media/${thumb}`);
  expect(served.headers()['content-type']).toMatch(/^image\/(webp|jpeg)$/);

  // The author's second device.
  const secondCtx = await newContext(browser);
  const second = await secondCtx.newPage();
  await signInViaApi(second, owner);
  await second.goto('/series');
  await expect(cardCover(second, title)).toBeVisible({ timeout: 30_000 });
  await second.goto('/characters');
  await expect(portrait(second, 'Nerys Hale')).toBeVisible({ timeout: 30_000 });

  // A viewer sees them and cannot change them.
  const viewerCtx = await newContext(browser);
  const viewerPage = await viewerCtx.newPage();
  const viewer = await signUpViaApi(viewerPage, { displayName: 'Vic Viewer', email: mail('viewer') });
  await api(page.request, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: viewer.email, role: 'viewer' });
  const [invite] = await api<{ id: string }[]>(viewerPage.request, 'GET', '/api/collaboration/pending-invites');
  await api(viewerPage.request, 'POST', `/api/collaboration/invites/${invite!.id}/accept`);
  await viewerPage.goto('/series');
  await expect(cardCover(viewerPage, title)).toBeVisible({ timeout: 30_000 });
  await viewerPage.goto('/characters');
  await expect(portrait(viewerPage, 'Nerys Hale')).toBeVisible({ timeout: 30_000 });
  await viewerPage.getByRole('button', { name: 'View details of Nerys Hale' }).click();
  await expect(viewerPage.getByRole('dialog')).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: /Choose picture|Change picture/ })).toHaveCount(0);
  // The server refuses a viewer's upload too.
  const refused = await viewerPage.request.put(`/api/series/${series.id}/media/${'0'.repeat(64)}`, { headers: { 'Content-Type': 'image/webp' }, data: Buffer.from('RIFF\0\0\0\0WEBPVP8 ') });
  expect(refused.status()).toBe(403);

  for (const ctx of [ownerCtx, secondCtx, viewerCtx]) await ctx.close();
});
