/**
 * Forms laid out as forms: every Mantine control draws with its stylesheet (web/scripts/feature-styles.test.ts
 * checks the imports; this checks what the author sees). The export screen's radios and checkboxes
 * have their labels beside them and its selects show their whole value; the series list's
 * List/Outline switch is a segmented control, not two browser radio buttons; Export and Import are
 * reachable from the series list, where the books are. Desktop and phone, no sideways scrolling.
 */
import { type Locator, type Page, expect, test } from '@playwright/test';
import { longChapter } from '../support/long-chapter';
import { newStory } from '../support/story';

/** The label is to the right of its control, on the same line. */
async function labelBeside(control: Locator, label: Locator): Promise<string> {
  const c = (await control.boundingBox())!;
  const l = (await label.boundingBox())!;
  const middle = l.y + l.height / 2;
  return l.x >= c.x + c.width - 1 && middle >= c.y - 4 && middle <= c.y + c.height + 4 ? 'beside' : `label at ${Math.round(l.x)},${Math.round(l.y)}; control at ${Math.round(c.x)},${Math.round(c.y)}`;
}

async function noSidewaysScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
  test(`${viewport.width}×${viewport.height}: the series list leads to Export and Import; the export form reads as a form`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const story = await newStory(context, longChapter(300).text);
    const page = await context.newPage();

    await page.goto('/series');
    const books = page.getByRole('region', { name: /Books in/ });
    await expect(books.getByRole('link', { name: 'Import' })).toHaveAttribute('href', `/series/${story.seriesId}/import`);
    // The chapters' List/Outline switch: a segmented control, its radio inputs hidden by its CSS.
    const outline = page.getByRole('radio', { name: 'Outline' });
    await expect(outline).toHaveCount(1);
    expect(await outline.evaluate((input) => getComputedStyle(input).opacity)).toBe('0');
    expect(await noSidewaysScroll(page)).toBe(true);

    await books.getByRole('link', { name: 'Export' }).click();
    await expect(page).toHaveURL(new RegExp(`/series/${story.seriesId}/export$`));
    await expect(page.getByText('What will be included')).toBeVisible();

    for (const name of ['PDF', 'Plain text (TXT)', 'Word (DOCX)']) {
      const radio = page.getByRole('radio', { name });
      const label = page.locator('label').filter({ hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')}$`) });
      expect(await labelBeside(radio, label), name).toBe('beside');
    }
    const book = page.getByRole('checkbox', { name: /The First Crossing/ });
    expect(await labelBeside(book, page.locator('label').filter({ hasText: /^The First Crossing/ }))).toBe('beside');

    // The selects show their whole value.
    for (const name of ['Font', 'Line spacing']) {
      const select = page.getByRole('combobox', { name });
      await expect(select).toBeVisible();
      expect(await select.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth + 1), `${name} shows "${await select.inputValue()}" in full`).toBe(true);
    }
    expect(await noSidewaysScroll(page)).toBe(true);
    await context.close();
  });
}

for (const viewport of [{ width: 1280, height: 720 }, { width: 1400, height: 900 }, { width: 390, height: 844 }]) {
  test(`${viewport.width}×${viewport.height}: the plan cards' badges are shown whole`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    await newStory(context, 'A first line.');
    const page = await context.newPage();
    await page.goto('/subscriptions');
    await expect(page.getByTestId('plan-wordsmith')).toBeVisible();
    const badges = page.locator('[data-testid^="plan-"] .mantine-Badge-label');
    await expect(badges.filter({ hasText: 'Most Popular' })).toHaveCount(1);
    await expect(badges.filter({ hasText: 'Current plan' })).toHaveCount(1);
    const cut = await badges.evaluateAll((labels) => labels.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent));
    expect(cut).toEqual([]);
    expect(await noSidewaysScroll(page)).toBe(true);
    await context.close();
  });
}

test('390×844: the sign-in page’s floating decoration never covers the logo', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/auth');
  const brand = page.getByTestId('auth-brand');
  await expect(page.getByTestId('floating-emoji').locator('span').first()).toBeAttached({ timeout: 10_000 });
  const overlaps = await page.evaluate(() => {
    const logo = document.querySelector('[data-testid="auth-brand"]')!.getBoundingClientRect();
    return Array.from(document.querySelectorAll('[data-testid="floating-emoji"] > span'))
      .map((emoji) => emoji.getBoundingClientRect())
      .filter((box) => box.right > logo.left && box.left < logo.right && box.bottom > logo.top && box.top < logo.bottom).length;
  });
  expect(overlaps).toBe(0);
  await expect(brand).toBeVisible();
  await context.close();
});

