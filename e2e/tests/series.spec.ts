/**
 * The Series page against the real server and the built PWA: an author registers through the UI,
 * creates a series, a book and three chapters through the dialogs, reorders the chapters by
 * KEYBOARD drag (space to lift, arrows, space to drop), reloads and sees everything in order, and
 * the server holds the chapters in the new order. Also: the Apprentice limits are shown, and the
 * page has no serious accessibility problems.
 */
import { type Page, expect, test } from '@playwright/test';
import { keyboardDrag, seriousA11yViolations, toast } from '../support';

const PASSWORD = 'lanterns-2026';

function username(): string {
  return `se${Date.now().toString(36)}${Math.floor(Math.random() * 1e5)}`;
}

async function registerThroughUi(page: Page): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Display name').fill('Ursula Writer');
  await page.getByLabel('Username').fill(username());
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
}


const chapterTitles = (page: Page) => page.getByTestId('chapter-item').getByRole('link').locator('p:first-child').allInnerTexts();

test.describe('series, books and chapters', () => {
  test('create a series, a book and three chapters; reorder by keyboard; the order survives a reload and reaches the server', async ({ page }) => {
    await registerThroughUi(page);
    await page.getByRole('link', { name: 'Series', exact: true }).first().click();
    await expect(page.getByRole('heading', { name: 'Series', level: 1 })).toBeVisible();
    await expect(page.getByText('No Series Yet')).toBeVisible();
    await expect(page.getByText('0 of 1 series on the Apprentice plan')).toBeVisible();

    // New Series: the title is required.
    await page.getByRole('button', { name: 'New Series' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create Series' }).click();
    await expect(page.getByText('Please provide a title for your series').first()).toBeVisible();
    await dialog.getByLabel('Title').fill('The Earthsea Cycle');
    await dialog.getByLabel('Description').fill('A wizard, a shadow, and the balance of the world.');
    await dialog.getByRole('button', { name: 'Create Series' }).click();
    await expect(page.getByText('Series created')).toBeVisible();
    const seriesCard = page.getByTestId('series-card');
    await expect(seriesCard.getByText('Book 1 of 3')).toBeVisible();
    // Progress is the work done (docs/spec-differences.md): no words yet is 0%, with 'Book 1 of 3' kept.
    await expect(seriesCard.getByText('0%')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Books in The Earthsea Cycle' })).toBeVisible();
    await expect(page.getByText('No Books Yet')).toBeVisible();
    // The Current Series card follows.
    await expect(page.getByTestId('current-series').first().getByText('The Earthsea Cycle')).toBeVisible();
    // One series is the Apprentice limit: New Series is locked with the upgrade message.
    await expect(page.getByRole('button', { name: 'New Series' })).toBeDisabled();
    await expect(page.getByTestId('series-limit')).toContainText('1 of 1 series on the Apprentice plan');

    // Add Book.
    await page.getByRole('button', { name: 'Add Book' }).first().click();
    await dialog.getByLabel('Title').fill('A Wizard of Earthsea');
    await dialog.getByRole('button', { name: 'Add Book' }).click();
    await expect(page.getByText('Book created')).toBeVisible();
    const book = page.getByTestId('book-card');
    await expect(book.getByText('A Wizard of Earthsea')).toBeVisible();
    await expect(page.getByTestId('book-limit')).toContainText('1 of 3 books on the Apprentice plan');

    // Three chapters, with the live word count.
    const titles = ['Warriors in the Mist', 'The Shadow', 'The Dragons of Pendor'];
    for (const title of titles) {
      await book.getByRole('button', { name: 'Add Chapter' }).click();
      await dialog.getByLabel('Chapter title').fill(title);
      await dialog.getByLabel('Content').fill('The island of Gont, a single mountain');
      await expect(dialog.getByTestId('chapter-word-count')).toHaveText('7 words');
      await dialog.getByRole('button', { name: 'Add Chapter' }).click();
      await expect(dialog).toBeHidden();
    }
    await expect.poll(() => chapterTitles(page)).toEqual(titles);

    expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);

    // Keyboard drag: the first chapter to the end.
    await keyboardDrag(book.getByRole('button', { name: 'Reorder chapter Warriors in the Mist' }), { direction: 'down', steps: 2 });
    const reordered = ['The Shadow', 'The Dragons of Pendor', 'Warriors in the Mist'];
    await expect.poll(() => chapterTitles(page)).toEqual(reordered);

    // The link of a chapter opens the editor with id, bookId and seriesId.
    const href = await book.getByRole('link', { name: /The Shadow/ }).getAttribute('href');
    const params = new URL(href!, 'http://x').searchParams;
    const bookId = params.get('bookId')!;
    expect(href).toMatch(/^\/chapter-editor\?id=[0-9a-f-]+&bookId=[0-9a-f-]+&seriesId=[0-9a-f-]+$/);

    // The server has the three chapters in the new order (the engine synced them).
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/books/${bookId}/chapters`);
          if (!res.ok()) return [];
          const rows = (await res.json()) as { title: string; position: number }[];
          return rows.sort((a, b) => a.position - b.position).map((c) => `${c.position}. ${c.title}`);
        },
        { timeout: 20_000 },
      )
      .toEqual(reordered.map((t, i) => `${i + 1}. ${t}`));
    await expect(page.getByTestId('sync-indicator').first()).toContainText('Online');

    // Reload: everything is there, in order.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Books in The Earthsea Cycle' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('book-card').getByText('A Wizard of Earthsea')).toBeVisible();
    await expect.poll(() => chapterTitles(page)).toEqual(reordered);

    // Clicking a chapter opens the chapter editor.
    await book.getByRole('link', { name: /The Shadow/ }).click();
    await expect(page).toHaveURL(/\/chapter-editor\?id=/);
  });

  test('inline edit of a book: Cancel restores, Save keeps; delete moves it to the Trash with an Undo', async ({ page }) => {
    await registerThroughUi(page);
    await page.goto('/series');
    await page.getByRole('button', { name: 'New Series' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Hainish');
    await dialog.getByRole('button', { name: 'Create Series' }).click();
    await page.getByRole('button', { name: 'Add Book' }).first().click();
    await dialog.getByLabel('Title').fill('The Dispossessed');
    await dialog.getByRole('button', { name: 'Add Book' }).click();
    const book = page.getByTestId('book-card');
    await expect(book.getByText('The Dispossessed')).toBeVisible();

    await book.getByRole('button', { name: 'Actions for The Dispossessed' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await book.getByLabel('Title').fill('Something Else');
    await book.getByRole('button', { name: 'Cancel' }).click();
    await expect(book.getByText('The Dispossessed')).toBeVisible();
    await expect(book.getByText('Something Else')).toHaveCount(0);

    await book.getByRole('button', { name: 'Actions for The Dispossessed' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await book.getByLabel('Title').fill('The Left Hand of Darkness');
    await book.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Book updated')).toBeVisible();
    await expect(book.getByText('The Left Hand of Darkness')).toBeVisible();

    await book.getByRole('button', { name: 'Actions for The Left Hand of Darkness' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    // Into the series' Trash at once, with an Undo (docs/decisions/0014-trash-and-restructure.md;
    // the spec's "cannot be undone" confirmation is gone: docs/spec-differences.md).
    const deleted = toast(page, 'Book deleted');
    await expect(deleted).toBeVisible();
    await expect(page.getByText('No Books Yet')).toBeVisible();
    await deleted.getByRole('button', { name: 'Undo' }).click();
    await expect(book.getByText('The Left Hand of Darkness')).toBeVisible();
  });
});
