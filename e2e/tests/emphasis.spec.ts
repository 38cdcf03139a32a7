/**
 * Emphasis from the keyboard and the toolbar to another device (docs/decisions/0009-chapter-markup.md,
 * docs/web.md#emphasis-in-the-editor): one word italicised with Ctrl/Cmd+I and another with the
 * "Italic" button, still italic after a reload offline, synced, and italic on a second device; an
 * HTML paste keeps its italics; the phone's toolbar offers Italic and Bold and stays one short row.
 */
import { type Browser, type BrowserContext, type Locator, type Page, expect, test } from '@playwright/test';
import { signInViaApi } from '../support';
import { longChapter } from '../support/long-chapter';
import { api, chapterContent, editorUrl, newStory, openEditor } from '../support/story';

const FIRST = 'The Argo left harbour at dawn while Mara slept.';

async function newContext(browser: Browser, viewport = { width: 1400, height: 900 }): Promise<BrowserContext> {
  return browser.newContext({ viewport });
}

async function serverContent(context: BrowserContext, id: string): Promise<string> {
  return (await api<{ content: string }>(context.request, 'GET', `/api/chapters/${id}`)).content;
}

/** A word drawn in italic: inside an <em> of the writing area, with an italic computed style. */
function italicWord(page: Page, word: string): Locator {
  return chapterContent(page).locator('em', { hasText: word });
}

async function expectItalic(page: Page, word: string): Promise<void> {
  const em = italicWord(page, word).first();
  await expect(em).toBeVisible({ timeout: 20_000 });
  expect(await em.evaluate((element) => getComputedStyle(element).fontStyle)).toBe('italic');
}

async function swReady(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 30_000 })
    .toBe('activated');
}

test('italicise with Ctrl+I and the Italic button, reload offline, sync, and a second device sees both', async ({ browser }) => {
  const a = await newContext(browser);
  const page = await a.newPage();
  const story = await newStory(a, `${FIRST}\n\n${longChapter(3_000).text}`);
  await openEditor(page, editorUrl(story));
  await swReady(page);

  // Ctrl/Cmd+I with the caret inside "Argo".
  await chapterContent(page).click();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ControlOrMeta+i');
  await expectItalic(page, 'Argo');
  const italic = page.getByRole('button', { name: 'Italic' });
  await expect(italic).toHaveAttribute('aria-pressed', 'true');

  // The toolbar's button with the caret inside "Mara".
  await page.keyboard.press('End');
  for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowLeft');
  await expect(italic).toHaveAttribute('aria-pressed', 'false');
  await italic.click();
  await expectItalic(page, 'Mara');
  await expect(italic).toHaveAttribute('aria-pressed', 'true');
  // Typing goes on where the caret was: the button kept the focus in the text.
  await page.keyboard.type('x');
  await page.keyboard.press('Backspace');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Chapter saved')).toBeVisible();

  // Offline, a reload still shows both words in italic (the shell from the service worker, the text from the device).
  await a.setOffline(true);
  await page.reload();
  await expect(chapterContent(page)).toBeVisible({ timeout: 20_000 });
  await expectItalic(page, 'Argo');
  await expectItalic(page, 'Mara');
  // Away from the caret's line the markers are not drawn: the line reads as printed.
  await chapterContent(page).click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(chapterContent(page).locator('.cm-line').first()).toHaveText(FIRST);

  await a.setOffline(false);
  await expect.poll(() => serverContent(a, story.chapterId), { timeout: 30_000 }).toContain('The *Argo* left harbour at dawn while *Mara* slept.');

  // A second device of the same author.
  const b = await newContext(browser);
  await signInViaApi(b, story);
  const other = await b.newPage();
  await openEditor(other, editorUrl(story));
  await expectItalic(other, 'Argo');
  await expectItalic(other, 'Mara');
  await b.close();
  await a.close();
});

test('an HTML paste keeps its italics and bold, and nothing else', async ({ browser }) => {
  const context = await newContext(browser);
  const page = await context.newPage();
  const story = await newStory(context, `${FIRST}\n\n${longChapter(1_000).text}`);
  await openEditor(page, editorUrl(story));
  await chapterContent(page).click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('End');

  // What a word processor puts on the clipboard, pasted at the end of the first paragraph.
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData('text/html', '<p class=MsoNormal> She <i>never</i> woke, <b>not once</b>.<img src="x" onerror="document.title=\'pwned\'"><script>document.title="pwned"</script></p>');
    data.setData('text/plain', ' She never woke, not once.');
    document.querySelector('[data-testid="chapter-content"]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expectItalic(page, 'never');
  await expect(chapterContent(page).locator('strong', { hasText: 'not once' })).toBeVisible();
  expect(await page.title()).not.toBe('pwned');
  await expect(chapterContent(page).locator('img, script')).toHaveCount(0);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Chapter saved')).toBeVisible();
  await expect.poll(() => serverContent(context, story.chapterId), { timeout: 30_000 }).toContain(`${FIRST}She *never* woke, **not once**.`);
  await context.close();
});

test('on a phone the toolbar offers Italic and Bold in one row under 56 px', async ({ browser }) => {
  const context = await newContext(browser, { width: 360, height: 640 });
  const page = await context.newPage();
  const story = await newStory(context, `${FIRST}\n\n${longChapter(1_000).text}`);
  await openEditor(page, editorUrl(story));
  await chapterContent(page).click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ArrowRight');
  await page.getByRole('button', { name: 'Bold' }).click();
  await expect(chapterContent(page).locator('strong', { hasText: 'The' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Italic' })).toBeVisible();
  const height = await page.getByTestId('editor-toolbar').evaluate((element) => element.getBoundingClientRect().height);
  expect(height).toBeLessThan(56);
  await context.close();
});
