/**
 * Restructuring a series (docs/decisions/0014-trash-and-restructure.md) against the real server and
 * the built PWA: a chapter deleted offline reaches the server's Trash once back online and is
 * restored from the Trash page; a chapter moved to the next book by keyboard drag (left/right
 * arrows) and undone from the toast; a chapter split at the cursor and merged with the next one in
 * the editor, each undone from the toast. The server holds every result.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, seriousA11yViolations, signUpViaApi, toast, waitForServiceWorkerControl } from '../support';
import { api, chapterContent } from '../support/story';

test.use({ viewport: { width: 1400, height: 900 } });

interface ServerChapter {
  id: string;
  title: string;
  content: string;
  position: number;
  bookId: string;
  trashedAt: string | null;
}

async function chaptersOf(request: APIRequestContext, bookId: string): Promise<ServerChapter[]> {
  return api<ServerChapter[]>(request, 'GET', `/api/books/${bookId}/chapters`);
}

async function story(request: APIRequestContext) {
  const series = await api<{ id: string }>(request, 'POST', '/api/series', { title: 'The Long Road', description: '', totalBooks: 2, currentBook: 1, coverImage: null });
  const one = await api<{ id: string }>(request, 'POST', '/api/books', { seriesId: series.id, title: 'The First Crossing' });
  const two = await api<{ id: string }>(request, 'POST', '/api/books', { seriesId: series.id, title: 'The Far Shore' });
  const make = (bookId: string, title: string, content: string) => api<ServerChapter>(request, 'POST', '/api/chapters', { bookId, title, content });
  const arrival = await make(one.id, 'Arrival', 'It began.\nThe ship landed.');
  const storm = await make(one.id, 'Storm', 'Rain fell.');
  await make(one.id, 'Calm', 'Then quiet.');
  await make(two.id, 'Years later', 'Years passed.');
  return { seriesId: series.id, one: one.id, two: two.id, arrival, storm };
}

const bookCard = (page: Page, title: string) => page.getByTestId('book-card').filter({ has: page.getByRole('heading', { name: title }) });
const titlesIn = (page: Page, book: string) => bookCard(page, book).getByTestId('chapter-item').getByRole('link').locator('p:first-child');

test('delete offline and restore from the Trash; move to another book by keyboard; split and merge in the editor; each undone', async ({ page, context }) => {
  test.setTimeout(180_000);
  await signUpViaApi(context, { displayName: 'Ursula Writer' });
  const s = await story(context.request);
  await page.goto(`/series/${s.seriesId}`);
  await expect(titlesIn(page, 'The First Crossing')).toHaveText(['Arrival', 'Storm', 'Calm'], { timeout: 20_000 });
  await waitForServiceWorkerControl(page);
  await expect(titlesIn(page, 'The First Crossing')).toHaveText(['Arrival', 'Storm', 'Calm'], { timeout: 20_000 });

  // Offline: delete Storm. It leaves its book at once; the server hears of it when the network returns.
  await goOffline(context);
  await bookCard(page, 'The First Crossing').getByRole('button', { name: 'Options for Storm' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(toast(page, 'Chapter moved to the Trash')).toBeVisible();
  await expect(titlesIn(page, 'The First Crossing')).toHaveText(['Arrival', 'Calm']);
  await goOnline(context);
  await expect.poll(async () => (await chaptersOf(context.request, s.one)).find((c) => c.id === s.storm.id)?.trashedAt ?? null, { timeout: 30_000 }).not.toBeNull();

  // The Trash lists it with when it was deleted; Restore puts it back in its place.
  await page.getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByRole('heading', { name: 'Trash', level: 1 })).toBeVisible({ timeout: 20_000 });
  const entry = page.getByTestId('trash-entry').filter({ hasText: 'Storm' });
  await expect(entry).toContainText('Deleted');
  await expect(entry).toContainText('from The First Crossing');
  expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);
  await entry.getByRole('button', { name: 'Restore' }).click();
  await expect(toast(page, 'Chapter restored')).toBeVisible();
  await expect(page.getByText('The Trash is empty.')).toBeVisible();
  await expect.poll(async () => (await chaptersOf(context.request, s.one)).find((c) => c.id === s.storm.id)?.trashedAt, { timeout: 30_000 }).toBeNull();
  await page.getByRole('link', { name: 'Back to the series' }).click();
  await expect(titlesIn(page, 'The First Crossing')).toHaveText(['Arrival', 'Storm', 'Calm'], { timeout: 20_000 });

  // Keyboard drag into the book beside: space lifts Calm, the right arrow takes it to The Far Shore, space drops it.
  const handle = bookCard(page, 'The First Crossing').getByRole('button', { name: 'Reorder chapter Calm' });
  await handle.focus();
  await page.keyboard.press('Space');
  await page.waitForTimeout(200);
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(200);
  await page.keyboard.press('Space');
  await expect(toast(page, 'Chapter moved')).toBeVisible();
  await expect(titlesIn(page, 'The Far Shore')).toContainText(['Calm']);
  await expect(titlesIn(page, 'The First Crossing')).toHaveText(['Arrival', 'Storm']);
  await expect.poll(async () => (await chaptersOf(context.request, s.two)).map((c) => c.title).sort(), { timeout: 30_000 }).toEqual(['Calm', 'Years later']);
  await toast(page, 'Chapter moved').getByRole('button', { name: 'Undo' }).click();
  await expect(titlesIn(page, 'The First Crossing')).toHaveText(['Arrival', 'Storm', 'Calm']);
  await expect.poll(async () => (await chaptersOf(context.request, s.one)).map((c) => `${c.position} ${c.title}`), { timeout: 30_000 }).toEqual([
    '1 Arrival',
    '2 Storm',
    '3 Calm',
  ]);

  // Split Arrival at the end of its first line, in the editor.
  await bookCard(page, 'The First Crossing').getByRole('link', { name: /Arrival/ }).click();
  await expect(chapterContent(page)).toBeVisible({ timeout: 20_000 });
  await chapterContent(page).click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.getByRole('button', { name: 'Restructure' }).click();
  await page.getByRole('menuitem', { name: 'Split at cursor' }).click();
  await expect(toast(page, 'Chapter split in two')).toBeVisible();
  await expect(chapterContent(page)).toHaveText('It began.');
  await expect
    .poll(async () => (await chaptersOf(context.request, s.one)).map((c) => `${c.position} ${c.title}: ${c.content}`), { timeout: 30_000 })
    .toEqual(['1 Arrival: It began.', '2 Arrival (continued): The ship landed.', '3 Storm: Rain fell.', '4 Calm: Then quiet.']);
  await toast(page, 'Chapter split in two').getByRole('button', { name: 'Undo' }).click();
  await expect(toast(page, 'Undone')).toBeVisible();
  await expect(chapterContent(page)).toHaveText('It began.The ship landed.');
  await expect
    .poll(async () => (await chaptersOf(context.request, s.one)).map((c) => `${c.position} ${c.title}`), { timeout: 30_000 })
    .toEqual(['1 Arrival', '2 Storm', '3 Calm']);

  // Merge Arrival with the next chapter (Storm goes to the Trash), then undo.
  await page.getByRole('button', { name: 'Restructure' }).click();
  await page.getByRole('menuitem', { name: 'Merge with next chapter' }).click();
  await expect(toast(page, 'Chapters merged')).toBeVisible();
  await expect(chapterContent(page)).toHaveText('It began.The ship landed.Rain fell.');
  await expect
    .poll(async () => (await chaptersOf(context.request, s.one)).map((c) => `${c.title}${c.trashedAt ? ' (in the Trash)' : ''}`), { timeout: 30_000 })
    .toEqual(['Arrival', 'Storm (in the Trash)', 'Calm']);
  await toast(page, 'Chapters merged').getByRole('button', { name: 'Undo' }).click();
  await expect(toast(page, 'Undone')).toBeVisible();
  await expect(chapterContent(page)).toHaveText('It began.The ship landed.');
  await expect
    .poll(async () => (await chaptersOf(context.request, s.one)).map((c) => `${c.title}: ${c.content}${c.trashedAt ? ' (in the Trash)' : ''}`), { timeout: 30_000 })
    .toEqual(['Arrival: It began.\nThe ship landed.', 'Storm: Rain fell.', 'Calm: Then quiet.']);
});
