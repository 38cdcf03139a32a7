/**
 * A chapter as long as real ones (20,000 words), read and written end to end on a desktop and on a
 * phone: the wheel (or a finger) and the keys reach the last paragraph, typing there shows what is
 * typed, the caret stays in view (also above an on-screen keyboard), the editor draws only about a
 * window's worth of lines wherever the view is, and a reload opens the chapter where the caret was
 * (docs/decisions/0001-editor-scrolls-with-the-page.md).
 */
import { type Browser, type Page, expect, test } from '@playwright/test';
import { type Theme, startInTheme } from '../support';
import {
  endOnScreen,
  expectCaretInView,
  longChapter,
  milesOnScreen,
  onScreen,
  paragraphAt,
  renderedLines,
  swipeUntilOnScreen,
  wheelUntilOnScreen,
} from '../support/long-chapter';
import { type Story, api, chapterContent, editorUrl, newStory, openEditor } from '../support/story';

const CHAPTER = longChapter(20_000);
/** Far fewer than the chapter's paragraphs: about a window's worth, and CodeMirror's margin around it. */
const MAX_DRAWN_LINES = 40;

interface Device {
  name: string;
  viewport: { width: number; height: number };
  touch: boolean;
  /** Each device in another theme: the sticky toolbar must hide the text under it in all four. */
  theme: Theme;
}

const DESKTOP: Device = { name: 'desktop 1400×900 (side panel open), Light', viewport: { width: 1400, height: 900 }, touch: false, theme: 'light' };
const NARROW: Device = { name: 'desktop 1100×800 (side panel closed), Dark', viewport: { width: 1100, height: 800 }, touch: false, theme: 'dark' };
const PHONE: Device = { name: 'phone 390×844, Spooky', viewport: { width: 390, height: 844 }, touch: true, theme: 'spooky' };
const SMALL_PHONE: Device = { name: 'phone 360×640, Sunset', viewport: { width: 360, height: 640 }, touch: true, theme: 'sunset' };

async function open(browser: Browser, device: Device): Promise<{ page: Page; story: Story; close: () => Promise<void> }> {
  const context = await browser.newContext({
    viewport: device.viewport,
    ...(device.touch ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {}),
  });
  await startInTheme(context, device.theme);
  const story = await newStory(context, CHAPTER.text);
  const page = await context.newPage();
  await openEditor(page, editorUrl(story));
  await expect(paragraphAt(page, CHAPTER.first)).toBeVisible();
  return { page, story, close: () => context.close() };
}

async function scrolledTo(page: Page, fraction: number): Promise<void> {
  await page.evaluate((f) => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) * f), fraction);
}

/** Saves with Ctrl/Cmd+S and waits until the server has the text ending with `ending`. */
async function saveAndWait(page: Page, story: Story, ending: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+s');
  await expect
    .poll(async () => (await api<{ content: string }>(page.request, 'GET', `/api/chapters/${story.chapterId}`)).content.endsWith(ending), {
      timeout: 20_000,
    })
    .toBe(true);
}

/** The toolbar's own background is opaque, so the text scrolled under it does not show through. */
async function toolbarIsOpaque(page: Page): Promise<boolean> {
  return page.getByTestId('editor-toolbar').evaluate((bar) => {
    const colour = getComputedStyle(bar).backgroundColor;
    const alpha = /rgba?\(([^)]+)\)/.exec(colour)?.[1]?.split(',')[3];
    return colour !== 'transparent' && (alpha === undefined || Number(alpha) === 1);
  });
}

for (const device of [DESKTOP, NARROW, PHONE, SMALL_PHONE]) {
  test(`${device.name}: a 20,000-word chapter is read to its end, written there, and reopened where the caret was`, async ({ browser }) => {
    test.setTimeout(180_000);
    const { page, story, close } = await open(browser, device);
    const last = paragraphAt(page, CHAPTER.last);
    expect(await last.count(), 'the last paragraph is not drawn at the top').toBe(0);

    // The editor draws about a window's worth of lines at the top, the middle and the end.
    const drawn: number[] = [await renderedLines(page)];
    await scrolledTo(page, 0.5);
    const total = CHAPTER.paragraphs.length;
    await expect
      .poll(async () => (await milesOnScreen(page)).some((mile) => mile > total * 0.3 && mile < total * 0.7), { timeout: 5_000 })
      .toBe(true);
    drawn.push(await renderedLines(page));
    await scrolledTo(page, 0);
    await expect(paragraphAt(page, CHAPTER.first)).toBeVisible();

    // Reading on: the wheel (a finger on the phone) reaches the last paragraph.
    if (device.touch) await swipeUntilOnScreen(page, last);
    else await wheelUntilOnScreen(page, last);
    expect(await endOnScreen(last)).toBe(true);
    expect(await toolbarIsOpaque(page), `the toolbar in ${device.theme}`).toBe(true);
    expect(await onScreen(page.getByTestId('editor-toolbar')), 'the toolbar stays in sight').toBe(true);
    drawn.push(await renderedLines(page));
    for (const count of drawn) expect(count, `lines drawn at top, middle, end: ${drawn.join(', ')}`).toBeLessThanOrEqual(MAX_DRAWN_LINES);

    // Back to the top with the keys, then Ctrl/Cmd+End: the caret at the end, in view; typing shows there.
    if (device.touch) await paragraphAt(page, CHAPTER.last).tap();
    else await paragraphAt(page, CHAPTER.last).click();
    await page.keyboard.press('ControlOrMeta+Home');
    await expectCaretInView(page);
    await expect(paragraphAt(page, CHAPTER.first)).toBeVisible();
    expect(await onScreen(paragraphAt(page, CHAPTER.first))).toBe(true);
    expect(await onScreen(page.getByTestId('chapter-title')), 'the title is in view at the start').toBe(true);
    await page.keyboard.press('ControlOrMeta+End');
    await expectCaretInView(page);
    const typed = ' The harbour lights went out one by one.';
    await page.keyboard.type(typed);
    await expectCaretInView(page);
    expect(await endOnScreen(page.getByText('The harbour lights went out one by one.'))).toBe(true);

    // Page Up and Page Down move through the chapter with the caret in view.
    const before = await page.evaluate(() => window.scrollY);
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageUp');
    await expectCaretInView(page);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(before - device.viewport.height);
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
    await expectCaretInView(page);
    await page.keyboard.press('ControlOrMeta+End');

    if (device.touch) {
      // The on-screen keyboard takes the lower half of the window: the caret stays above it as the author types.
      await page.setViewportSize({ width: device.viewport.width, height: 420 });
      await page.keyboard.type(' A gull cried once.');
      await expectCaretInView(page);
      await page.setViewportSize(device.viewport);
    }

    await saveAndWait(page, story, device.touch ? 'A gull cried once.' : typed.trim());

    // Reopened, the chapter shows the end where the caret was, and typing goes on from there.
    await page.reload();
    await expect(chapterContent(page)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('The harbour lights went out one by one.')).toBeVisible();
    expect(await endOnScreen(page.getByText('The harbour lights went out one by one.'))).toBe(true);
    await chapterContent(page).focus();
    await page.keyboard.type(' Then silence.');
    await expectCaretInView(page);
    await saveAndWait(page, story, 'Then silence.');
    await close();
  });
}
