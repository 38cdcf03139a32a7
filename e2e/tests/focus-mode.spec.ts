/**
 * Focus mode (docs/web.md#the-chapter-editor): the editor alone over the whole window, the text
 * centred at a reading measure, the line being typed kept at one height (typewriter scrolling), the
 * word count and save state only on request, and Esc (or its button on a phone) back to the editor
 * as it was — same text, same caret.
 */
import { type Page, expect, test } from '@playwright/test';
import { type Theme, startInTheme } from '../support';
import { caretBox, longChapter, paragraphAt } from '../support/long-chapter';
import { api, chapterContent, editorUrl, newStory, openEditor } from '../support/story';

const CHAPTER = longChapter(4_000);

async function openIn(page: Page, theme: Theme) {
  await startInTheme(page.context(), theme);
  const story = await newStory(page.context(), CHAPTER.text);
  await openEditor(page, editorUrl(story));
  await expect(paragraphAt(page, CHAPTER.first)).toBeVisible();
  return story;
}

/** Whether the element drawn at (x, y) belongs to the editor screen (not the sidebar or top bar under it). */
function editorOnTopAt(page: Page, x: number, y: number): Promise<boolean> {
  return page.evaluate(([px, py]) => Boolean(document.elementFromPoint(px!, py!)?.closest('[data-testid="editor-screen"]')), [x, y]);
}

/** Two animation frames: CodeMirror measures and scrolls in the frame after a change. */
function nextFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

async function caretTop(page: Page): Promise<number> {
  const caret = await caretBox(page);
  expect(caret, 'the text holds the caret').not.toBeNull();
  return caret!.top;
}

test('desktop: the editor alone, centred, the typed line at one height, counts on request, Esc back', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const story = await openIn(page, 'dark');
  await paragraphAt(page, 'Mile 2.').click();
  await page.keyboard.press('End');

  await page.getByRole('button', { name: 'Focus mode' }).click();
  const screen = page.getByTestId('editor-screen');
  await expect(screen).toHaveAttribute('data-focus-mode', 'true');
  await expect(page.getByTestId('editor-toolbar')).toBeHidden();
  await expect(page.getByRole('complementary', { name: 'Chapter details' })).toBeHidden();
  await expect(page.getByTestId('chapter-title')).toBeHidden();
  // The sidebar's place and the top-left corner now show the editor's own page.
  expect(await editorOnTopAt(page, 40, 450)).toBe(true);
  expect(await editorOnTopAt(page, 5, 5)).toBe(true);
  // The text is centred at a reading measure.
  const text = (await chapterContent(page).boundingBox())!;
  expect(Math.abs(text.x + text.width / 2 - 700), 'centred').toBeLessThanOrEqual(12);
  expect(text.width).toBeLessThanOrEqual(46 * 16 + 1);
  // No word count until asked.
  await expect(page.getByTestId('focus-counts')).toHaveCount(0);

  // Typewriter scrolling: each new line is typed at the same height, near the middle of the window.
  const tops: number[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Enter');
    await page.keyboard.type(`Line ${i + 1} of the night crossing, written without looking up.`);
    await nextFrames(page);
    tops.push(await caretTop(page));
  }
  const spread = Math.max(...tops) - Math.min(...tops);
  expect(spread, `caret tops ${tops.map(Math.round).join(', ')}`).toBeLessThanOrEqual(4);
  expect(tops[0]!).toBeGreaterThan(900 * 0.35);
  expect(tops[0]!).toBeLessThan(900 * 0.65);

  // The word count and the save state on request; a save from the keyboard shows there.
  await page.getByRole('button', { name: 'Word count and save state' }).click();
  const counts = page.getByTestId('focus-counts');
  await expect(counts).toContainText(/\d[\d,]* words/);
  await expect(page.getByTestId('focus-save-state')).toHaveText('Unsaved changes');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTestId('focus-save-state')).toHaveText(/^Saved/);
  await expect
    .poll(async () => (await api<{ content: string }>(page.request, 'GET', `/api/chapters/${story.chapterId}`)).content.includes('Line 8 of the night crossing'))
    .toBe(true);

  // Esc: back to the editor with its toolbar, the caret where it was, typing goes on there.
  await chapterContent(page).press('Escape');
  await expect(screen).not.toHaveAttribute('data-focus-mode', 'true');
  await expect(page.getByTestId('editor-toolbar')).toBeVisible();
  await page.keyboard.type(' And on.');
  await expect(page.locator('.cm-line').filter({ hasText: 'Line 8 of the night crossing, written without looking up. And on.' })).toBeVisible();

  // Ctrl/Cmd+Shift+F goes in and out from the keyboard.
  await page.keyboard.press('ControlOrMeta+Shift+F');
  await expect(screen).toHaveAttribute('data-focus-mode', 'true');
  await page.keyboard.press('ControlOrMeta+Shift+F');
  await expect(screen).not.toHaveAttribute('data-focus-mode', 'true');
});

test('phone: focus mode from the chapter options, over the top bar, left with its button', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await openIn(page, 'sunset');
  await page.getByTestId('editor-menu').tap();
  await page.getByRole('button', { name: 'Focus mode' }).tap();
  const screen = page.getByTestId('editor-screen');
  await expect(screen).toHaveAttribute('data-focus-mode', 'true');
  expect(await editorOnTopAt(page, 20, 20), 'the top bar is covered').toBe(true);
  // No sideways scrolling on the phone.
  expect(await screen.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

  await paragraphAt(page, CHAPTER.first).tap();
  await page.keyboard.type('Written on the phone. ');
  await expect(page.getByRole('button', { name: 'Leave focus mode' })).toBeVisible();
  await page.getByRole('button', { name: 'Leave focus mode' }).tap();
  await expect(screen).not.toHaveAttribute('data-focus-mode', 'true');
  await expect(page.getByTestId('editor-toolbar')).toBeVisible();
  await expect(page.locator('.cm-line').filter({ hasText: 'Written on the phone.' })).toHaveCount(1);
  await context.close();
});
