/**
 * Writing analytics in Chromium against the real server: an author's saves (two books) show on
 * /analytics as figures, charts and the tables screen readers read; the page is axe-clean in every
 * theme; a plan without `analytics` sees the sample under the upgrade prompt (and the server refuses
 * the saves' endpoint); a phone shows the page without sideways scrolling; offline, the page draws
 * from the last answer kept on the device.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { THEMES, goOffline, goOnline, seriousA11yViolations, setPlan, signUpViaApi, startInTheme } from '../support';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function post<T>(request: APIRequestContext, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { data });
  expect(res.ok(), `POST ${url} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

/** A Wordsmith author who wrote 120 words in one book and 80 in another, through ordinary saves. */
async function authorWithWriting(page: Page): Promise<{ username: string }> {
  const author = await signUpViaApi(page, { displayName: 'Octavia Butler' });
  await setPlan(author.username, 'wordsmith', page);
  const series = await post<{ id: string }>(page.request, '/api/series', { title: 'Parable', totalBooks: 2 });
  const sower = await post<{ id: string }>(page.request, '/api/books', { seriesId: series.id, title: 'The Sower' });
  const talents = await post<{ id: string }>(page.request, '/api/books', { seriesId: series.id, title: 'The Talents' });
  const one = await post<{ id: string }>(page.request, '/api/chapters', { bookId: sower.id, title: 'Earthseed', content: '' });
  const two = await post<{ id: string }>(page.request, '/api/chapters', { bookId: talents.id, title: 'Acorn', content: '' });
  const save = async (id: string, content: string) => {
    const res = await page.request.put(`/api/chapters/${id}`, { data: { content, writing: { editedAt: new Date().toISOString() } } });
    expect(res.status(), await res.text()).toBe(200);
  };
  await save(one.id, words(60, 'a'));
  await save(one.id, words(120, 'a'));
  await save(two.id, words(80, 'b'));
  return author;
}

test.describe('analytics', () => {
  test.use({ viewport: DESKTOP });

  test('seeded writing shows as figures, charts and screen-reader tables; axe-clean in every theme; offline from the kept answer', async ({ page, context }) => {
    // Four themes, each reloaded and scanned: slow on a loaded machine.
    test.slow();
    await authorWithWriting(page);
    await page.goto('/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    await expect(page.getByTestId('stat-total-words')).toContainText('200', { timeout: 20_000 });
    await expect(page.getByTestId('stat-writing-days')).toContainText('1');
    await expect(page.getByTestId('stat-longest-streak')).toContainText('1 day');
    await expect(page.getByTestId('stat-best-day')).toContainText('200 words');

    // The chart is drawn for the eye; its figures are a table screen readers reach.
    const overTime = page.getByTestId('words-over-time');
    await expect(overTime.locator('.recharts-bar-rectangle').first()).toBeAttached();
    const dayTable = overTime.getByRole('table', { name: /Words per day, the last 30 days/ });
    await expect(dayTable).toBeAttached();
    await expect(dayTable.getByRole('row')).toHaveCount(31);
    await expect(dayTable.getByRole('row').last()).toContainText('200');

    // Switch to months with the keyboard.
    await overTime.getByRole('radio', { name: 'Days' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(overTime.getByRole('table', { name: /Words per month/ })).toBeAttached();

    // Sessions, time of day and books, from the saves.
    await expect(page.getByTestId('sessions')).toContainText('1 session');
    await expect(page.getByTestId('time-of-day')).toContainText('You write most between');
    const byBook = page.getByTestId('by-book');
    await expect(byBook).toContainText('The Sower (Parable)');
    await expect(byBook).toContainText('The Talents (Parable)');
    await byBook.getByRole('button', { name: 'Show table' }).click();
    const bookTable = byBook.getByRole('table');
    await expect(bookTable).toBeVisible();
    await expect(bookTable.getByRole('row', { name: /The Sower \(Parable\) 120/ })).toBeVisible();
    await expect(bookTable.getByRole('row', { name: /The Talents \(Parable\) 80/ })).toBeVisible();

    for (const theme of THEMES) {
      await page.evaluate((t) => window.localStorage.setItem('chronicler:theme', t), theme);
      await page.reload();
      await expect(page.getByTestId('by-book')).toContainText('The Sower', { timeout: 20_000 });
      expect(await seriousA11yViolations(page), `${theme}`).toEqual([]);
    }

    // The dashboard's Last 30 Days grid is drawn in the theme: in Dark and Spooky a day without
    // words is a dark square, not a light grey one.
    for (const theme of ['dark', 'spooky'] as const) {
      await page.evaluate((t) => window.localStorage.setItem('chronicler:theme', t), theme);
      await page.goto('/');
      const empty = page.getByTestId('thirty-days').locator('[data-level="0"]').first();
      await expect(empty).toBeVisible({ timeout: 20_000 });
      const luminance = await empty.evaluate((cell) => {
        const [r, g, b] = getComputedStyle(cell).backgroundColor.match(/[\d.]+/g)!.map(Number) as [number, number, number];
        const channel = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      });
      expect(luminance, `${theme}: an empty day's square`).toBeLessThan(0.2);
    }
    await page.goto('/analytics');
    await expect(page.getByTestId('by-book')).toContainText('The Sower', { timeout: 20_000 });

    // Offline: the day figures from the local database, the rest from the answer kept on the device.
    await goOffline(context);
    await page.reload().catch(() => undefined);
    await expect(page.getByTestId('analytics-offline')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('stat-total-words')).toContainText('200');
    await expect(page.getByTestId('by-book')).toContainText('The Sower (Parable)');
    await goOnline(context);
  });

  test('a plan without analytics sees the page’s sample under the upgrade prompt; the server refuses the saves', async ({ page }) => {
    await signUpViaApi(page, { displayName: 'Ursula Le Guin' });
    await page.goto('/subscriptions');
    // The plan cards lead to the feature.
    await page.getByTestId('plan-wordsmith').getByRole('link', { name: 'Writing analytics' }).click();
    await expect(page).toHaveURL(/\/analytics$/);
    const locked = page.getByTestId('analytics-locked');
    await expect(locked.getByText('Feature Locked')).toBeVisible({ timeout: 20_000 });
    await expect(locked.getByText('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.')).toBeVisible();
    await expect(locked.getByTestId('words-over-time')).toBeAttached();
    await locked.getByRole('link', { name: 'Upgrade' }).click();
    await expect(page).toHaveURL(/\/subscriptions/);
    const res = await page.request.get('/api/writing-activity');
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.');
  });
});

test.describe('analytics on a phone', () => {
  test.use({ viewport: PHONE });

  test('the page fits a phone’s width, charts and tables included', async ({ page, context }) => {
    await startInTheme(context, 'dark');
    await authorWithWriting(page);
    await page.goto('/analytics');
    await expect(page.getByTestId('by-book')).toContainText('The Sower (Parable)', { timeout: 20_000 });
    await expect(page.getByTestId('stat-total-words')).toContainText('200');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId('words-over-time').getByRole('button', { name: 'Show table' }).click();
    await expect(page.getByTestId('words-over-time').getByRole('table')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
