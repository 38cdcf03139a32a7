/**
 * Share cards in Chromium: an earned achievement and a book marked completed offer a card drawn in
 * the browser — 1,200 × 630, in the current theme's colours, with the title and the figure — that
 * downloads as a PNG (Chromium on Linux has no share sheet for files) without any request leaving
 * the page; a plan without `sharingMilestones` sees the card under the upgrade prompt.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { setPlan, signUpViaApi, startInTheme } from '../support';

test.use({ viewport: { width: 1280, height: 900 } });

async function post<T>(request: APIRequestContext, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { data });
  expect(res.ok(), `POST ${url} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const SECRET_LINE = 'The moon was a ghost ship sailing the clouds';

/** An author with a book and a chapter (which earns First Chapter). */
async function authorWithBook(page: Page) {
  const author = await signUpViaApi(page, { displayName: 'Ursula Le Guin' });
  const series = await post<{ id: string }>(page.request, '/api/series', { title: 'Hainish', totalBooks: 2 });
  const book = await post<{ id: string }>(page.request, '/api/books', { seriesId: series.id, title: 'The Dispossessed' });
  await post(page.request, '/api/chapters', { bookId: book.id, title: 'Anarres', content: SECRET_LINE });
  return { author, series, book };
}

/** The colour of one pixel of the card image shown in the dialog, as "r,g,b". */
async function cardPixel(page: Page, x: number, y: number): Promise<string> {
  return page.getByTestId('share-card-image').evaluate(async (img: HTMLImageElement, [px, py]) => {
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const [r, g, b] = ctx.getImageData(px!, py!, 1, 1).data;
    return `${r},${g},${b}`;
  }, [x, y]);
}

/** The page's body colour as "r,g,b". */
async function bodyColour(page: Page): Promise<string> {
  return page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.color = getComputedStyle(document.body).getPropertyValue('--mantine-color-body');
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color.match(/\d+/g)!.slice(0, 3).join(',');
    probe.remove();
    return rgb;
  });
}

test('an earned achievement’s card: drawn in the dark theme, downloaded as a 1200×630 PNG, nothing sent', async ({ page, context }) => {
  await startInTheme(context, 'dark');
  const { author } = await authorWithBook(page);
  await setPlan(author.username, 'wordsmith', page);
  // The dashboard's NEW badge offers the fresh achievement's card…
  await page.goto('/');
  await page.getByTestId('recent-achievements').getByRole('link', { name: 'Share First Chapter' }).click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog', { name: 'Share your milestone' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/achievements\?tab=earned$/);
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toBeHidden();
  // …and every earned one has its Share button. From here on, nothing may be sent.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET') sent.push(`${request.method()} ${request.url()} ${request.postData() ?? ''}`);
  });
  await page.getByRole('button', { name: 'Share First Chapter' }).click();
  await expect(dialog).toBeVisible();
  const image = dialog.getByTestId('share-card-image');
  await expect(image).toBeVisible({ timeout: 20_000 });
  await expect(image).toHaveAttribute('alt', /Achievement earned: First Chapter/);
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1200, 630]);
  // The card's background is the theme's body colour (bottom right: nothing drawn there).
  expect(await cardPixel(page, 1180, 600)).toBe(await bodyColour(page));

  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download image' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^chronicler-first-chapter.*\.png$/);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  const png = readFileSync(path!);
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  // Made on the device: no request left the page, let alone the manuscript.
  expect(sent.filter((s) => s.includes(SECRET_LINE))).toEqual([]);
  // (The app's own background writes — the sync engine, presence, the browser's time zone — may run meanwhile.)
  const background = ['/api/presence', '/api/sync', '/api/user/settings'];
  expect(sent.filter((s) => !background.some((path) => s.includes(path)))).toEqual([]);
});

test('marking a book completed offers its card; a plan without sharing milestones sees it locked', async ({ page }) => {
  const { series } = await authorWithBook(page);
  await page.goto(`/series/${series.id}`);
  const book = page.getByRole('article', { name: 'Book 1: The Dispossessed' });
  await book.getByRole('button', { name: 'Actions for The Dispossessed' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await book.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Completed' }).click();
  await book.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share your milestone' });
  await expect(dialog).toBeVisible();
  // Apprentice: the card is drawn under the upgrade prompt, out of reach.
  await expect(dialog.getByText('Feature Locked')).toBeVisible();
  await expect(dialog.getByText('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Upgrade' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Download image' })).toHaveCount(0);
});
