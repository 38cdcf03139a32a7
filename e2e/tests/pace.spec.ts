/**
 * Pace predictions (docs/decisions/0018-pace-predictions.md) against the real server and the built
 * PWA: a Wordsmith sets a book's goal from its card — a target below the words written and a
 * deadline in the past are refused with clear messages — offline, and sees the projection on the
 * card, in the series' pace table and on the dashboard; back online, the server holds the goal. An Apprentice meets the
 * upgrade prompt in the goal form and the series' pace, and the server refuses the write too.
 */
import { type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, seriousA11yViolations, setPlan, signUpViaApi, toast, waitForServiceWorkerControl } from '../support';
import { api } from '../support/story';

test.use({ viewport: { width: 1400, height: 900 } });

const UPGRADE = 'This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.';
const bookCard = (page: Page, title: string) => page.getByTestId('book-card').filter({ has: page.getByRole('heading', { name: title }) });

/** A day `n` days from now, as the date input takes it. */
function dayFromNow(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

async function story(page: Page) {
  const series = await api<{ id: string }>(page.request, 'POST', '/api/series', { title: 'The Deadline Cycle', totalBooks: 2 });
  const book = await api<{ id: string }>(page.request, 'POST', '/api/books', { seriesId: series.id, title: 'The First Draft' });
  await api(page.request, 'POST', '/api/books', { seriesId: series.id, title: 'The Second Draft' });
  // Nine words written already.
  await api(page.request, 'POST', '/api/chapters', { bookId: book.id, title: 'Opening', content: 'It began on a cold morning in the north.' });
  return { seriesId: series.id, bookId: book.id };
}

test('a Wordsmith sets a goal offline, is told about bad input, and sees the projection on the book, the series and the dashboard', async ({ page }) => {
  test.setTimeout(120_000);
  const author = await signUpViaApi(page, { displayName: 'Nora Deadline' });
  await setPlan(author.username, 'wordsmith', page);
  const s = await story(page);

  await page.goto(`/series/${s.seriesId}`);
  const card = bookCard(page, 'The First Draft');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await waitForServiceWorkerControl(page);
  await goOffline(page.context());
  await card.getByRole('button', { name: 'Actions for The First Draft' }).click();
  await page.getByRole('menuitem', { name: 'Goal' }).click();
  const form = page.getByRole('form', { name: 'Goal for The First Draft' });
  await expect(form).toBeVisible();

  // Bad input: a target below the words written, a deadline in the past. Nothing is saved.
  const target = form.getByRole('textbox', { name: 'Target word count' });
  await target.fill('5');
  await form.getByLabel('Deadline').fill(dayFromNow(-3));
  await form.getByRole('button', { name: 'Save goal' }).click();
  await expect(form.getByText('The target is below the 9 words this book already has: choose at least 9')).toBeVisible();
  await expect(form.getByText('The deadline has passed: choose today or a later day')).toBeVisible();

  // A good goal, with the weekend off, by keyboard where a keyboard would do.
  await target.fill('50000');
  await form.getByLabel('Deadline').fill(dayFromNow(60));
  await form.getByRole('checkbox', { name: 'Sat' }).press('Space');
  await form.getByRole('checkbox', { name: 'Sun' }).press('Space');
  await form.getByRole('button', { name: 'Save goal' }).click();
  await expect(toast(page, 'Goal saved')).toBeVisible();
  await expect(form).toBeHidden();

  // The card: no writing in the last 14 days yet, so no finish date — the words to go.
  await expect(card.getByTestId('pace-summary')).toContainText('49,991 words to go');
  await expect(card.getByTestId('pace-status')).toHaveText('No recent writing');

  // The series' pace table: every book, one with a goal.
  const table = page.getByRole('table', { name: 'Pace of the books of The Deadline Cycle' });
  const rows = table.getByTestId('series-pace-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('9 of 50,000');
  await expect(rows.first()).toContainText('49,991 words');
  await expect(rows.nth(1)).toContainText('No goal');

  // The page itself (a toast's grey text fails contrast app-wide: not this feature's).
  expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);

  // Back online, the server holds it.
  await goOnline(page.context());
  await expect
    .poll(async () => (await api<{ targetWords: number | null }>(page.request, 'GET', `/api/books/${s.bookId}`)).targetWords, { timeout: 30_000 })
    .toBe(50_000);
  const stored = await api<{ writingDays: number[] }>(page.request, 'GET', `/api/books/${s.bookId}`);
  expect(stored.writingDays).toEqual([1, 2, 3, 4, 5]);

  // The dashboard: the current book's pace with the words each writing day needs.
  await page.goto('/');
  const panel = page.getByTestId('book-pace-panel');
  await expect(panel.getByRole('heading', { name: 'Pace of The First Draft' })).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByTestId('pace-to-go')).toHaveText('49,991 words');
  await expect(panel.getByTestId('pace-needed')).toHaveText(/^[\d,]+ words$/);
  await expect(panel.getByTestId('pace-finish')).toHaveText('Write on a few days to see a projection');
});

test('an Apprentice meets the upgrade prompt in the goal form and the series pace, and the server refuses the goal', async ({ page }) => {
  await signUpViaApi(page, { displayName: 'Ada Apprentice' });
  const s = await story(page);

  await page.goto(`/series/${s.seriesId}`);
  const pace = page.getByTestId('series-pace');
  await expect(pace.getByText(UPGRADE)).toBeVisible({ timeout: 20_000 });
  await expect(pace.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/subscription');

  const card = bookCard(page, 'The First Draft');
  await card.getByRole('button', { name: 'Actions for The First Draft' }).click();
  await page.getByRole('menuitem', { name: 'Goal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Goal for The First Draft' });
  await expect(dialog.getByText('Feature Locked')).toBeVisible();
  await expect(dialog.getByText(UPGRADE)).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Upgrade' })).toBeVisible();

  const refused = await page.request.put(`/api/books/${s.bookId}`, { data: { targetWords: 50_000 } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toBe(UPGRADE);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the series pace table scrolls sideways inside its panel and a book title opens its goal', async ({ page }) => {
    const author = await signUpViaApi(page, { displayName: 'Pia Phone' });
    await setPlan(author.username, 'wordsmith', page);
    const s = await story(page);
    const res = await page.request.put(`/api/books/${s.bookId}`, { data: { targetWords: 20_000, deadline: dayFromNow(30) } });
    expect(res.status()).toBe(200);

    await page.goto(`/series/${s.seriesId}`);
    const table = page.getByRole('table', { name: 'Pace of the books of The Deadline Cycle' });
    await expect(table.getByTestId('series-pace-row').first()).toContainText('19,991 words', { timeout: 20_000 });
    // The page itself does not scroll sideways: the table does, inside its panel.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await table.getByRole('button', { name: 'Goal for The First Draft' }).tap();
    const form = page.getByRole('form', { name: 'Goal for The First Draft' });
    await expect(form.getByRole('textbox', { name: 'Target word count' })).toHaveValue('20,000');
    await expect(form.getByRole('button', { name: 'Save goal' })).toBeInViewport();
  });
});
