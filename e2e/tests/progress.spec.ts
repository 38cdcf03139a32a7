/**
 * Writing progress in Chromium against the real server: words written offline raise
 * Words Today and the streak before the network returns, and the server's statistics agree once
 * synced; the first chapter earns its achievement (NEW on the dashboard, under Earned on
 * /achievements); Start Writing, the dashboard's add-chapter form and reorder.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, keyboardDrag, signUpViaApi, toast, waitForServiceWorkerControl } from '../support';

test.use({ viewport: { width: 1400, height: 900 } });

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(url) : await request.post(url, { data });
  expect(res.ok(), `${method} ${url} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const wordsToday = (page: Page) => page.getByTestId('words-today-value');
const streak = (page: Page) => page.getByTestId('current-streak-value');
const sidebarLink = (page: Page, name: string) =>
  page.getByRole('complementary', { name: 'Sidebar' }).getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

test('about 300 words written offline raise Words Today and the streak at once; online, the server agrees', async ({ page, context }) => {
  await signUpViaApi(page, { displayName: 'Octavia Butler' });
  const series = await api<{ id: string }>(page.request, 'POST', '/api/series', { title: 'Parable', totalBooks: 2 });
  const book = await api<{ id: string }>(page.request, 'POST', '/api/books', { seriesId: series.id, title: 'The Sower' });
  const chapter = await api<{ id: string }>(page.request, 'POST', '/api/chapters', { bookId: book.id, title: 'Earthseed', content: 'It began.' });

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome back, Octavia' })).toBeVisible();
  await waitForServiceWorkerControl(page);
  await expect(wordsToday(page)).toHaveText('0', { timeout: 20_000 });
  await expect(streak(page)).toHaveText('0 days');

  await page.goto(`/chapter-editor?id=${chapter.id}&bookId=${book.id}&seriesId=${series.id}`);
  const content = page.getByTestId('chapter-content');
  await expect(content).toContainText('It began.', { timeout: 20_000 });

  await goOffline(context);
  await content.click();
  await page.keyboard.press('ControlOrMeta+End');
  // Six bursts of 50 words (the author's typing, not a paste: each save stays under the threshold).
  for (let burst = 0; burst < 6; burst++) {
    await page.keyboard.insertText(` ${Array.from({ length: 50 }, (_, i) => `word${burst}x${i}`).join(' ')}`);
  }
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(page, 'Chapter saved')).toBeVisible();

  await sidebarLink(page, 'Dashboard').click();
  await expect(wordsToday(page)).toHaveText('300', { timeout: 20_000 });
  await expect(streak(page)).toHaveText('1 day');
  await expect(page.getByTestId('streak-bar').getByRole('listitem').last()).toHaveAttribute('data-state', 'written');
  await expect(page.getByTestId('words-today-trend')).toHaveText('+300 from yesterday');

  await goOnline(context);
  await expect
    .poll(async () => (await api<{ wordsWritten: number }[]>(page.request, 'GET', '/api/writing-stats?period=day')).at(-1)?.wordsWritten ?? 0, { timeout: 30_000 })
    .toBe(300);
  // Synced: the figure now comes from the server's statistics, and it is the same.
  await expect.poll(async () => page.evaluate(() => navigator.onLine)).toBe(true);
  await expect(wordsToday(page)).toHaveText('300');
  await expect(streak(page)).toHaveText('1 day');
});

test('the first chapter earns its achievement (NEW on the dashboard, under Earned); Start Writing, add-chapter and reorder', async ({ page }) => {
  await signUpViaApi(page, { displayName: 'Ursula Le Guin' });
  const series = await api<{ id: string }>(page.request, 'POST', '/api/series', { title: 'Earthsea', totalBooks: 3 });
  const book = await api<{ id: string }>(page.request, 'POST', '/api/books', { seriesId: series.id, title: 'A Wizard of Earthsea' });

  await page.goto('/');
  const current = page.getByTestId('current-book');
  await expect(current.getByRole('heading', { name: 'A Wizard of Earthsea' })).toBeVisible({ timeout: 20_000 });
  const title = current.getByRole('textbox', { name: 'New chapter title' });
  await title.fill('   ');
  await current.getByRole('button', { name: 'Add' }).click();
  await title.fill('Warriors in the Mist');
  await current.getByRole('button', { name: 'Add' }).click();
  await expect(toast(page, 'Chapter added')).toBeVisible();
  await title.fill('The Shadow');
  await current.getByRole('button', { name: 'Add' }).click();
  await expect(current.getByTestId('chapter-item')).toHaveCount(2);

  // The server earned First Chapter with the create; it reaches the dashboard through the feed.
  const recent = page.getByTestId('recent-achievements');
  await expect(recent.getByTestId('recent-achievement').filter({ hasText: 'First Chapter' })).toBeVisible({ timeout: 30_000 });
  await expect(recent.getByTestId('recent-achievement').filter({ hasText: 'First Chapter' }).getByTestId('new-tag')).toHaveText('NEW');

  const serverChapters = async () => api<{ id: string; title: string; position: number }[]>(page.request, 'GET', `/api/books/${book.id}/chapters`);
  await expect.poll(async () => (await serverChapters()).map((c) => `${c.position} ${c.title}`), { timeout: 20_000 }).toEqual(['1 Warriors in the Mist', '2 The Shadow']);

  // Start Writing opens the chapter last worked on in the current book.
  const shadow = (await serverChapters()).find((c) => c.title === 'The Shadow')!;
  await page.getByRole('button', { name: 'Start Writing' }).click();
  await expect(toast(page, 'Ready to write')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/chapter-editor\\?id=${shadow.id}`));

  // Reorder on the dashboard with the keyboard: The Shadow first, saved 1-based.
  await sidebarLink(page, 'Dashboard').click();
  await keyboardDrag(page.getByTestId('current-book').getByRole('button', { name: 'Reorder chapter The Shadow' }), { direction: 'up', steps: 1 });
  await expect.poll(async () => (await serverChapters()).map((c) => `${c.position} ${c.title}`), { timeout: 20_000 }).toEqual(['1 The Shadow', '2 Warriors in the Mist']);

  await sidebarLink(page, 'Achievements').click();
  await page.getByRole('tab', { name: 'Earned' }).click();
  const earned = page.getByTestId('achievements-earned');
  await expect(earned.getByTestId('achievement-card').filter({ hasText: 'First Chapter' })).toContainText('Earned on');
  await expect(page.getByTestId('summary-earned')).toContainText('1');
});
