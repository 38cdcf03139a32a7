/**
 * Search (docs/decisions/0012-offline-search.md) in Chromium against the real server: Ctrl+K from
 * a signed-in screen, offline, finds a word in a chapter (accent- and markup-insensitive), a
 * character by an alias and a timeline event; choosing the chapter hit opens the editor with the
 * hit selected; Ctrl+F there opens find and replace within the chapter.
 */
import { type Page, expect, test } from '@playwright/test';
import { goOffline, setPlan, waitForServiceWorkerControl } from '../support';
import { api, chapterContent, newStory } from '../support/story';

test.use({ viewport: { width: 1400, height: 900 } });

const TEXT = 'Élodie climbed the stair.\nAt the top she found the *silver* key, cold as the river.';

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const searchBox = (page: Page) => dialog(page).getByRole('combobox', { name: 'Search text' });
const results = (page: Page) => dialog(page).getByRole('listbox', { name: 'Search results' });

test('search: offline, finds a chapter word, a character and an event, and opens the editor at the hit', async ({ page, context }) => {
  const story = await newStory(context, TEXT);
  await setPlan(story.username, 'wordsmith', context);
  await api(context.request, 'POST', '/api/characters', { seriesId: story.seriesId, name: 'Mara Voss', aliases: ['the Ferryman'], backstory: 'Raised on the barges of Kessel.' });
  await api(context.request, 'POST', '/api/timeline-events', { seriesId: story.seriesId, title: 'The flood', description: 'The river takes the lower town of Kessel.' });

  await page.goto('/');
  await waitForServiceWorkerControl(page);
  // Everything synced to this device before the network goes.
  await page.goto('/characters');
  await expect(page.getByText('Mara Voss').locator('visible=true').first()).toBeVisible({ timeout: 20_000 });
  await goOffline(context);

  await page.getByRole('button', { name: /Search/ }).first().click();
  await expect(dialog(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();

  // Ctrl+K from any signed-in screen.
  await page.keyboard.press('Control+k');
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByTestId('search-offline')).toBeVisible();

  // A one-letter query shows nothing and no error.
  await searchBox(page).fill('s');
  await expect(results(page)).toBeHidden();

  // Accent-insensitive, and emphasis never breaks a phrase.
  await searchBox(page).fill('"silver key"');
  await expect(results(page).getByRole('option')).toHaveCount(1, { timeout: 20_000 });
  await expect(results(page).getByRole('option').first()).toContainText('Lanterns');
  await expect(results(page).locator('mark')).toHaveText('silver key');
  await searchBox(page).fill('elodie');
  await expect(results(page).getByRole('option', { name: /Lanterns/ })).toBeVisible();

  // A character by an alias, and by any of its text.
  await searchBox(page).fill('ferryman');
  await expect(results(page).getByRole('option', { name: /Mara Voss/ })).toBeVisible();
  // An event, beside the character, grouped by kind with counts.
  await searchBox(page).fill('kessel');
  await expect(results(page).getByRole('option', { name: /Mara Voss/ })).toBeVisible();
  await expect(results(page).getByRole('option', { name: /The flood/ })).toBeVisible();
  await expect(results(page).getByRole('group', { name: /Characters/ })).toBeVisible();
  await expect(results(page).getByRole('group', { name: /Timeline events/ })).toBeVisible();

  // Regex-like input is searched literally.
  await searchBox(page).fill('.*[(');
  await expect(results(page)).toBeHidden();
  await searchBox(page).fill('zzqx');
  await expect(dialog(page).getByTestId('search-no-results')).toBeVisible();

  // The chapter hit, chosen with the keyboard, opens the editor with the hit selected.
  await searchBox(page).fill('silver');
  await expect(results(page).getByRole('option', { name: /Lanterns/ })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(chapterContent(page)).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/select=\d+-\d+/u);
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('silver');

  // Ctrl+F: find and replace within the chapter.
  await chapterContent(page).click();
  await page.keyboard.press('Control+f');
  const find = page.getByRole('textbox', { name: 'Find' });
  await expect(find).toBeFocused();
  await expect(page.getByRole('checkbox', { name: 'Match case' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Whole word' })).toBeVisible();
  await find.fill('river');
  await page.getByRole('textbox', { name: 'Replace with' }).fill('stream');
  await page.getByRole('button', { name: 'Replace all' }).click();
  await expect(chapterContent(page)).toContainText('cold as the stream');
});
