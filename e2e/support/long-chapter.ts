/**
 * Chapters as long as real ones, and the checks a reader of a long chapter makes: is this paragraph
 * on screen, where is the caret, how many lines does the editor draw. Every screen that shows chapter
 * text is tested with a few thousand words at least: a short text hides scrolling defects.
 *
 *   const chapter = longChapter(20_000);          // { text, paragraphs, first, last }
 *   await wheelUntilOnScreen(page, paragraphAt(page, chapter.last));
 */
import { type Locator, type Page, expect } from '@playwright/test';

const SENTENCES = [
  'The lanterns drifted past the mill while the river carried the last of the light toward the sea.',
  'Mara counted the boats twice, because the harbour master never trusted a count made in the rain.',
  'Nobody on the quay said a word about the letter, though every one of them had read it by noon.',
  'Ilse kept her hands in her sleeves and watched the tower windows darken one after another.',
  'A bell rang somewhere behind the warehouses, slow and patient, as if it had all night to finish.',
  'The old road climbed out of the valley in long loops, and the carts took most of a day to crest it.',
  'She remembered the map her father had drawn on the back of a ledger, every bridge marked in red ink.',
  'When the wind turned, the smell of tar and wet rope came up the stairs and filled the narrow room.',
  'Corvin laughed at that, but he checked the lock on the chest before he went to sleep.',
  'By morning the snow had covered the tracks, and the forest looked as if nobody had ever passed through it.',
  'The captain wrote three words in the log and underlined the last of them twice.',
  'Somewhere below, a door closed softly, and the whole house seemed to hold its breath.',
];

export interface LongChapter {
  text: string;
  paragraphs: string[];
  /** The first and last paragraphs' opening words: unique, to find them on screen. */
  first: string;
  last: string;
}

/** About `words` words in paragraphs of ~90 words, each opening with a unique "Mile N." marker. */
export function longChapter(words: number): LongChapter {
  const paragraphs: string[] = [];
  let total = 0;
  let index = 0;
  while (total < words) {
    const n = paragraphs.length + 1;
    const sentences = [`Mile ${n}.`];
    let count = 2;
    while (count < 90) {
      const sentence = SENTENCES[index % SENTENCES.length]!;
      index += 5; // 5 and 12 are coprime: every sentence comes round, in a shifting order
      sentences.push(sentence);
      count += sentence.split(' ').length;
    }
    paragraphs.push(sentences.join(' '));
    total += count;
  }
  const marker = (i: number) => `Mile ${i + 1}.`;
  return { text: paragraphs.join('\n\n'), paragraphs, first: marker(0), last: marker(paragraphs.length - 1) };
}

/** The editor's line (paragraph) that opens with `marker` — present only while the editor draws it. */
export function paragraphAt(page: Page, marker: string): Locator {
  return page.locator('.cm-line').filter({ hasText: new RegExp(`^${marker.replace('.', '\\.')} `) });
}

/** The "Mile N" numbers of the paragraphs on screen now. */
export function milesOnScreen(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const height = window.visualViewport?.height ?? window.innerHeight;
    return Array.from(document.querySelectorAll('.cm-content .cm-line')).flatMap((line) => {
      const box = line.getBoundingClientRect();
      const mile = /^Mile (\d+)\. /.exec(line.textContent ?? '');
      return mile && box.bottom > 0 && box.top < height ? [Number(mile[1])] : [];
    });
  });
}

/** How many lines the editor draws now (it draws what is visible, plus a margin). */
export function renderedLines(page: Page): Promise<number> {
  return page.locator('.cm-content .cm-line').count();
}

/** True when some of the element shows in the window's visible height. */
export async function onScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  if (!box) return false;
  const height = await locator.page().evaluate(() => window.visualViewport?.height ?? window.innerHeight);
  return box.y < height - 8 && box.y + box.height > 8;
}

/**
 * True when the element's last line shows in the window: the reader has reached its end (a
 * paragraph can be taller than a phone's screen).
 */
export async function endOnScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  if (!box) return false;
  const height = await locator.page().evaluate(() => window.visualViewport?.height ?? window.innerHeight);
  const bottom = box.y + box.height;
  return bottom > 24 && bottom <= height;
}

/**
 * Turns the wheel over `box` (a part of the page that scrolls itself: a dialog, a drawer, the merge
 * editor) until `target` shows inside it and in the window.
 */
export async function wheelWithinUntilShown(page: Page, box: Locator, target: Locator, turns = 200): Promise<void> {
  const area = (await box.boundingBox())!;
  await page.mouse.move(area.x + area.width / 2, area.y + Math.min(area.height / 2, 100));
  const container = await box.elementHandle();
  const shown = async () =>
    (await target.count()) > 0 &&
    (await target.first().evaluate((element, outerElement) => {
      const rect = element.getBoundingClientRect();
      const outer = (outerElement as Element).getBoundingClientRect();
      const bottom = Math.min(outer.bottom, window.innerHeight);
      return rect.top >= Math.max(outer.top, 0) - 1 && rect.top + Math.min(rect.height, 24) <= bottom + 1;
    }, container));
  for (let turn = 0; turn < turns && !(await shown()); turn++) await page.mouse.wheel(0, 400);
  await expect.poll(shown).toBe(true);
}

/**
 * The caret's box in the window: the editor uses the browser's own caret, so this is the DOM
 * selection's focus point (null while the editor does not hold the selection).
 */
export function caretBox(page: Page): Promise<{ top: number; bottom: number } | null> {
  return page.evaluate(() => {
    const selection = window.getSelection();
    if (!selection?.focusNode || !document.querySelector('.cm-content')?.contains(selection.focusNode)) return null;
    const range = document.createRange();
    range.setStart(selection.focusNode, selection.focusOffset);
    range.collapse(true);
    const rect = range.getClientRects()[0] ?? (selection.focusNode instanceof Element ? selection.focusNode.getBoundingClientRect() : range.getBoundingClientRect());
    return { top: rect.top, bottom: rect.bottom };
  });
}

/** Expects the caret between the sticky toolbar's bottom edge and the bottom of the visible window. */
export async function expectCaretInView(page: Page): Promise<void> {
  await expect
    .poll(async () => {
      const caret = await caretBox(page);
      if (!caret) return 'no caret';
      const toolbar = await page.getByTestId('editor-toolbar').boundingBox();
      const height = await page.evaluate(() => window.visualViewport?.height ?? window.innerHeight);
      const top = toolbar ? toolbar.y + toolbar.height : 0;
      return caret.top >= top - 1 && caret.bottom <= height + 1 ? 'in view' : `at ${Math.round(caret.top)} (view ${Math.round(top)}–${height})`;
    })
    .toBe('in view');
}

/** Turns the mouse wheel over the writing area until `target` is on screen (at most `turns` turns). */
export async function wheelUntilOnScreen(page: Page, target: Locator, turns = 400, delta = 600): Promise<number> {
  const area = await page.getByTestId('chapter-content').boundingBox();
  expect(area).not.toBeNull();
  const viewport = page.viewportSize()!;
  await page.mouse.move(area!.x + area!.width / 2, Math.min(viewport.height - 40, area!.y + 200));
  for (let turn = 1; turn <= turns; turn++) {
    await page.mouse.wheel(0, delta);
    if (turn % 5 === 0 && (await target.count()) > 0 && (await endOnScreen(target.first()))) return turn;
  }
  await expect.poll(async () => (await target.count()) > 0 && endOnScreen(target.first()), { timeout: 5_000 }).toBe(true);
  return turns;
}

/**
 * Swipes up over the writing area with real touch input (CDP touch events, as a finger would: the
 * browser scrolls and flings) until `target` is on screen.
 */
export async function swipeUntilOnScreen(page: Page, target: Locator, swipes = 300): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  const { width, height } = page.viewportSize()!;
  const x = Math.round(width / 2);
  const from = Math.round(height * 0.85);
  try {
    for (let swipe = 1; swipe <= swipes; swipe++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: from }] });
      for (let step = 1; step <= 12; step++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: from - step * Math.round(height * 0.06) }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      if ((await target.count()) > 0 && (await endOnScreen(target.first()))) return swipe;
    }
  } finally {
    await cdp.detach();
  }
  await expect.poll(async () => (await target.count()) > 0 && endOnScreen(target.first()), { timeout: 5_000 }).toBe(true);
  return swipes;
}

/**
 * The long-chapter check, as an author does it: the wheel (a finger with `touch`) reaches the last
 * paragraph, Ctrl/Cmd+End puts the caret there, and what is typed shows on screen with the caret in view.
 */
export async function readToEndAndWrite(page: Page, chapter: LongChapter, typed: string, options: { touch?: boolean } = {}): Promise<void> {
  const last = paragraphAt(page, chapter.last);
  if (options.touch) await swipeUntilOnScreen(page, last);
  else await wheelUntilOnScreen(page, last);
  if (options.touch) await last.tap();
  else await last.click();
  await page.keyboard.press('ControlOrMeta+End');
  await expectCaretInView(page);
  await page.keyboard.type(typed);
  await expectCaretInView(page);
  expect(await endOnScreen(page.getByText(typed.trim()))).toBe(true);
}

/**
 * After a reload: the chapter opens where the caret was (`typedBefore` on screen without any scrolling),
 * and typing goes on from there.
 */
export async function expectReopenedAtCaret(page: Page, typedBefore: string, typeNext: string): Promise<void> {
  const editor = page.getByTestId('chapter-content');
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(typedBefore.trim())).toBeVisible();
  expect(await endOnScreen(page.getByText(typedBefore.trim()))).toBe(true);
  await editor.focus();
  await page.keyboard.type(typeNext);
  await expectCaretInView(page);
  await expect(page.getByText(`${typedBefore.trim()}${typeNext}`)).toBeVisible();
}
