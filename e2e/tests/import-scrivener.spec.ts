/**
 * Importing a whole Scrivener project (docs/decisions/0013-scrivener-import.md) in Chromium against
 * the real server: the project folder picked with the directory picker, previewed with what it
 * leaves out, written (and synced), an imported chapter opened in the editor with its italics and
 * synopsis, then the import undone as one step.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { toast } from '../support';
import { api, chapterContent, editorUrl, newStory, openEditor } from '../support/story';

test.use({ viewport: { width: 1400, height: 900 } });

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/features/import/scrivener/fixtures/The Lantern Road.scriv');

interface Row {
  id: string;
  title: string;
  bookId: string;
  deletedAt: string | null;
}
const changes = (request: APIRequestContext) => api<{ changes: { books: Row[]; chapters: Row[] } }>(request, 'GET', '/api/sync/changes?since=0&limit=10000');

test('import a Scrivener project folder, open an imported chapter with its italics and synopsis, undo the import', async ({ page, context }) => {
  const story = await newStory(context, 'The first crossing.');
  await page.goto(`/series/${story.seriesId}/import`);
  await page.getByText('A Scrivener project', { exact: true }).click();
  await page.getByTestId('scrivener-folder').setInputFiles(PROJECT);

  await expect(page.getByText('The Lantern Road: 2 books, 6 chapters')).toBeVisible({ timeout: 20_000 });
  const preview = page.getByTestId('scrivener-preview');
  await expect(preview.getByText('Part One')).toBeVisible();
  await expect(preview.getByText('Chapter 3: The River')).toBeVisible();
  await expect(page.getByTestId('scrivener-left-out')).toContainText('Trash: 1 item in the Trash');

  await page.getByRole('button', { name: 'Import 2 books' }).click();
  await expect(toast(page, 'Scrivener project imported')).toBeVisible({ timeout: 30_000 });

  const findArrival = async () => (await changes(context.request)).changes.chapters.find((c) => c.title === 'Arrival' && !c.deletedAt);
  await expect.poll(async () => (await findArrival())?.id ?? null, { timeout: 30_000 }).not.toBeNull();
  const arrival = (await findArrival())!;

  await openEditor(page, editorUrl({ seriesId: story.seriesId, bookId: arrival.bookId, chapterId: arrival.id }));
  const italic = chapterContent(page).locator('em', { hasText: 'carefully' }).first();
  await expect(italic).toBeVisible({ timeout: 20_000 });
  expect(await italic.evaluate((element) => getComputedStyle(element).fontStyle)).toBe('italic');
  await expect(page.getByRole('textbox', { name: 'Synopsis' })).toHaveValue('Mara reaches the Lantern Gate and talks her way through.');

  await page.goto(`/series/${story.seriesId}/import`);
  await page.getByText('A Scrivener project', { exact: true }).click();
  await expect(page.getByTestId('scrivener-imported')).toContainText('2 books, 6 chapters, 2 characters, 1 location from “The Lantern Road”');
  await page.getByRole('button', { name: 'Undo import' }).click();
  await expect(toast(page, 'Import undone')).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(async () => {
      const { books, chapters } = (await changes(context.request)).changes;
      const imported = books.filter((b) => b.title === 'Part One' || b.title === 'Part Two');
      return { books: imported.length > 0 && imported.every((b) => b.deletedAt !== null), arrival: chapters.find((c) => c.title === 'Arrival')?.deletedAt != null };
    }, { timeout: 30_000 })
    .toEqual({ books: true, arrival: true });
  // The series' own book is untouched.
  expect((await changes(context.request)).changes.books.find((b) => b.id === story.bookId)?.deletedAt ?? null).toBeNull();
});
