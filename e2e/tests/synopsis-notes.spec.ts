/**
 * A chapter's synopsis and notes (docs/architecture.md#chapters) in Chromium against the real
 * server: written beside the text while offline, still there after an offline reload, synced on
 * reconnect, seen by the author's second device (a phone: a sheet) in the editor and in the book's
 * outline, and never counted as writing.
 */
import { type APIRequestContext, type Locator, type Page, expect, test } from '@playwright/test';
import { signInViaApi } from '../support';
import { api, editorUrl, newStory, openEditor } from '../support/story';

test.use({ viewport: { width: 1400, height: 900 } });

interface ServerChapter {
  synopsis: string;
  notes: string;
  wordCount: number;
}
const serverChapter = (request: APIRequestContext, id: string) => api<ServerChapter>(request, 'GET', `/api/chapters/${id}`);
const writingStats = async (request: APIRequestContext) =>
  (await api<{ changes: { writingStats: unknown[] } }>(request, 'GET', '/api/sync/changes?since=0&limit=10000')).changes.writingStats;

const synopsisBox = (within: Page | Locator) => within.getByRole('textbox', { name: 'Synopsis' });
const notesBox = (within: Page | Locator) => within.getByRole('textbox', { name: 'Notes' });

const SYNOPSIS = 'Eda crosses the river at night and finds the *lantern* lit.';
const NOTES = 'Check the tide tables before the crossing.';

test('synopsis and notes: written offline, kept through a reload, synced, seen on a second device and in the outline, not counted as writing', async ({
  page,
  context,
  browser,
}) => {
  const story = await newStory(context, 'The river ran cold under the bridge.');
  const wordsBefore = (await serverChapter(context.request, story.chapterId)).wordCount;
  const statsBefore = await writingStats(context.request);
  await openEditor(page, editorUrl(story));
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 30_000 })
    .toBe('activated');

  await context.setOffline(true);
  expect(await page.evaluate(() => fetch('/api/health').then(() => 'reached', () => 'offline'))).toBe('offline');
  await synopsisBox(page).fill(SYNOPSIS);
  await notesBox(page).click();
  await page.keyboard.type(NOTES);
  // Autosaved to this device (nothing waits in the panel any more).
  await expect.poll(() => page.evaluate(() => (window as { __chroniclerBusy?: () => boolean }).__chroniclerBusy?.() ?? true), { timeout: 10_000 }).toBe(false);

  await page.reload();
  await expect(synopsisBox(page)).toHaveValue(SYNOPSIS, { timeout: 20_000 });
  await expect(notesBox(page)).toHaveText(NOTES);
  expect((await serverChapter(context.request, story.chapterId)).synopsis).toBe('');

  await context.setOffline(false);
  await expect
    .poll(async () => {
      const { synopsis, notes } = await serverChapter(context.request, story.chapterId);
      return { synopsis, notes };
    }, { timeout: 30_000 })
    .toEqual({ synopsis: SYNOPSIS, notes: NOTES });
  expect((await serverChapter(context.request, story.chapterId)).wordCount).toBe(wordsBefore);
  // Not writing: the words the chapter counts and the author's statistics are as they were.
  expect(await writingStats(context.request)).toEqual(statsBefore);
  await expect(page.getByTestId('words-badge')).toContainText(String(wordsBefore));

  // The author's second device, a phone: the side panel is a sheet there.
  const second = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 390, height: 844 }, hasTouch: true });
  await signInViaApi(second, story);
  const other = await second.newPage();
  await openEditor(other, editorUrl(story));
  await other.getByRole('button', { name: 'Synopsis and notes' }).click();
  const sheet = other.getByRole('dialog', { name: 'Synopsis and notes' });
  await expect(synopsisBox(sheet)).toHaveValue(SYNOPSIS, { timeout: 20_000 });
  await expect(notesBox(sheet)).toHaveText(NOTES);
  await other.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  // The book's outline, chosen with the keyboard.
  await other.goto(`/series/${story.seriesId}`);
  const list = other.getByRole('radio', { name: 'List' });
  await expect(list).toBeChecked({ timeout: 20_000 });
  await list.focus();
  await other.keyboard.press('ArrowRight');
  const outline = other.getByTestId('chapter-outline');
  await expect(outline.getByTestId('outline-item')).toHaveCount(1);
  await expect(outline.getByTestId('outline-synopsis')).toHaveText('Eda crosses the river at night and finds the lantern lit.');
  await expect(outline.getByTestId('outline-synopsis').locator('em')).toHaveText('lantern');
  await expect(outline).toContainText('In Progress');
  await expect(outline).toContainText(`${wordsBefore} words`);
  // Remembered on this device.
  await other.reload();
  await expect(other.getByTestId('chapter-outline')).toBeVisible({ timeout: 20_000 });
  await second.close();
});
