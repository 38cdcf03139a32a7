/**
 * Every navigation link in sight: on a laptop screen (1280×720, and the 1400×900 the product is
 * tried at) every sidebar link is drawn whole inside the window, expanded and collapsed, with no
 * scrolling inside the sidebar; the Current Series card gives way (shorter, then hidden) before a
 * link does, and the dashboard shows the series' Recent Activity in its own panel.
 */
import { type Page, expect, test } from '@playwright/test';
import { newStory } from '../support/story';

/** The sidebar's links whose box is not wholly inside both the window and the nav's visible area. */
async function hiddenLinks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const nav = document.querySelector('aside nav[aria-label="Main"]')!;
    const area = nav.getBoundingClientRect();
    const hidden: string[] = [];
    for (const link of Array.from(nav.querySelectorAll("a"))) {
      const box = link.getBoundingClientRect();
      const name = link.getAttribute('aria-label') ?? link.textContent ?? '?';
      if (box.height === 0 || box.top < Math.max(0, area.top) - 0.5 || box.bottom > Math.min(window.innerHeight, area.bottom) + 0.5) hidden.push(name);
    }
    if (nav.scrollHeight > nav.clientHeight + 1) hidden.push(`(the nav scrolls: ${nav.scrollHeight} > ${nav.clientHeight})`);
    return hidden;
  });
}

for (const viewport of [{ width: 1280, height: 720 }, { width: 1400, height: 900 }]) {
  test(`${viewport.width}×${viewport.height}: every sidebar link is in sight on the dashboard, expanded and collapsed`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    await newStory(context, 'A first line.');
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
    // The Recent Activity panel is on the dashboard (it hid the links inside the sidebar's card).
    await expect(page.getByRole('region', { name: 'Recent Activity' })).toBeVisible();
    await expect(page.locator('aside').getByTestId('recent-activity')).toHaveCount(0);
    const links = page.locator('aside nav[aria-label="Main"] a');
    await expect(links).toHaveCount(13);
    expect(await hiddenLinks(page)).toEqual([]);
    if (viewport.height >= 900) await expect(page.locator('aside').getByTestId('current-series')).toBeVisible();

    await page.getByTestId('sidebar-toggle').click();
    await expect(page.locator('aside[data-collapsed]')).toHaveCount(1);
    expect(await hiddenLinks(page)).toEqual([]);
    await context.close();
  });
}
