/**
 * The Characters page against the real server and the built PWA (spec 001 §2 "Characters page",
 * §9 relationship map): an author on the Wordsmith plan (raised with the operator command) creates
 * characters in the dialog, marks one as main, links two with a relationship and sees the link on
 * the map; the server holds them. An Apprentice sees the map locked and the character limit coming,
 * and the map opens once the operator raises the plan. A character created offline reaches the
 * server when the connection returns.
 */
import { type Page, expect, test } from '@playwright/test';
import { STORAGE_KEYS, THEMES, goOffline, goOnline, type Author, seriousA11yViolations, setPlan, signUpViaApi, toast } from '../support';

interface SeriesRow {
  id: string;
  title: string;
}

async function createSeries(page: Page, title: string): Promise<SeriesRow> {
  const res = await page.request.post('/api/series', {
    data: { title, description: 'A wizard, a shadow, and the balance of the world.', totalBooks: 3, currentBook: 1, coverImage: null },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as SeriesRow;
}

async function createBooksViaApi(page: Page, seriesId: string, titles: readonly string[]): Promise<void> {
  for (const title of titles) {
    const res = await page.request.post('/api/books', { data: { seriesId, title } });
    expect(res.status(), await res.text()).toBe(201);
  }
}

async function createCharacterViaApi(page: Page, seriesId: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await page.request.post('/api/characters', { data: { seriesId, name, ...extra } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function serverCharacters(page: Page, seriesId: string): Promise<{ name: string; isProtagonist: boolean; bookAppearances: number[] }[]> {
  const res = await page.request.get(`/api/series/${seriesId}/characters`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { name: string; isProtagonist: boolean; bookAppearances: number[] }[];
}

/** Opens /characters and waits until the series has arrived in the local database. */
async function openCharacters(page: Page, seriesTitle: string): Promise<void> {
  await page.goto('/characters');
  await expect(page.getByRole('heading', { name: 'Characters', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('combobox', { name: 'Series' })).toHaveValue(seriesTitle, { timeout: 20_000 });
}

async function addCharacterInDialog(page: Page, name: string, fill: (dialog: ReturnType<Page['getByRole']>) => Promise<void> = async () => {}) {
  await page.getByRole('button', { name: 'New Character' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Character' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await fill(dialog);
  await dialog.getByRole('button', { name: 'Create Character' }).click();
  await expect(dialog).toBeHidden();
  // One toast at a time: the previous 'Character added' may still be leaving.
  await expect(toast(page, 'Character added').last()).toBeVisible();
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('characters and the relationship map', () => {
  // Dialog-driven flows with the operator command and sync round trips: more than the default minute on a busy machine.
  test.describe.configure({ timeout: 150_000 });

  test('a Wordsmith creates characters, marks one as main, relates two and sees the link on the map', async ({ page }) => {
    const author: Author = await signUpViaApi(page);
    await setPlan(author.username, 'wordsmith', page);
    const series = await createSeries(page, 'The Earthsea Cycle');
    // A seven-book saga: book appearances offer its own books, 6 and 7 included (docs/spec-differences.md).
    const saga = ['A Wizard of Earthsea', 'The Tombs of Atuan', 'The Farthest Shore', 'Tehanu', 'Tales from Earthsea', 'The Other Wind', 'Firelight'];
    await createBooksViaApi(page, series.id, saga);
    await openCharacters(page, 'The Earthsea Cycle');
    await expect(page.getByText('No Characters Found').first()).toBeVisible();

    // New Character with several fields; the name is required.
    await page.getByRole('button', { name: 'New Character' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Character' });
    await dialog.getByRole('button', { name: 'Create Character' }).click();
    await expect(dialog.getByText('Character name is required')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await addCharacterInDialog(page, 'Ged', async (d) => {
      await d.getByRole('textbox', { name: 'Occupation' }).fill('Wizard');
      await expect(d.getByRole('checkbox', { name: /^Book \d+: / })).toHaveCount(7);
      await d.getByRole('checkbox', { name: 'Book 6: The Other Wind' }).check();
      await d.getByRole('checkbox', { name: 'Book 7: Firelight' }).check();
      // The simulated AI portrait (bundled placeholder, 1.5 s).
      await d.getByRole('textbox', { name: /^Description/ }).fill('A goatherd from Gont with a gift for true names');
      await d.getByRole('button', { name: 'Generate image' }).click();
      await expect(toast(page, 'Image Generated')).toBeVisible({ timeout: 10_000 });
      await expect(d.getByRole('textbox', { name: 'Avatar URL' })).toHaveValue(/\/assets\/portrait-\d-.*\.svg$/);
    });
    await addCharacterInDialog(page, 'Vetch');

    // Both start as supporting characters.
    await page.getByRole('tab', { name: /Supporting Characters/ }).click();
    const ged = page.getByRole('article', { name: 'Ged' });
    await expect(ged).toBeVisible();
    await expect(ged.getByText('Books 6 and 7')).toBeVisible();
    await expect(ged.getByRole('img', { name: 'Ged' })).toBeVisible();

    // The star makes Ged a main character.
    await ged.getByRole('button', { name: 'Mark Ged as main character' }).click();
    await expect(toast(page, 'Character updated')).toBeVisible();
    await page.getByRole('tab', { name: /Main Characters/ }).click();
    await expect(page.getByRole('article', { name: 'Ged' })).toBeVisible();

    // Add a relationship on the map.
    const map = page.getByRole('region', { name: 'Character Relationship Map' });
    await expect(map.getByRole('button', { name: 'Ged, main character. Open details' })).toBeVisible();
    await map.getByRole('button', { name: 'Add Relationship' }).click();
    const rel = page.getByRole('dialog', { name: 'Add Relationship' });
    await expect(rel.getByRole('button', { name: 'Add Relationship' })).toBeDisabled();
    await choose(page, 'Source character', 'Ged');
    await choose(page, 'Target character', 'Vetch');
    await choose(page, 'Relationship type', 'Ally');
    await rel.getByRole('textbox', { name: 'Description' }).fill('Friends from the school on Roke');
    await rel.getByRole('button', { name: 'Add Relationship' }).click();
    await expect(toast(page, 'Relationship added')).toBeVisible();

    const link = map.getByRole('button', { name: 'Ged and Vetch: Ally, Friends from the school on Roke. Edit relationship' });
    // A horizontal line has a zero-height box, which Playwright calls hidden: check it is drawn.
    await expect(link).toHaveCount(1);
    await expect(map.getByTestId('map-link')).toHaveCount(1);
    await expect(link.locator('path').nth(1)).toHaveAttribute('stroke', '#B4C6FC');
    await link.focus();
    await expect(map.getByTestId('map-tooltip')).toHaveText('Ally: Friends from the school on Rok...'); // cut at 30 characters

    // Clicking a node opens the character's details.
    await map.getByRole('button', { name: 'Ged, main character. Open details' }).click();
    const details = page.getByRole('dialog', { name: 'Character details' });
    await expect(details.getByText('Wizard')).toBeVisible();
    await expect(details.getByText('Vetch')).toBeVisible();
    await details.getByRole('button', { name: 'Close' }).click();

    expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);

    // Everything reached the server.
    await expect
      .poll(async () => (await serverCharacters(page, series.id)).map((c) => `${c.name}:${c.isProtagonist}`).sort(), { timeout: 20_000 })
      .toEqual(['Ged:true', 'Vetch:false']);
    expect((await serverCharacters(page, series.id)).find((c) => c.name === 'Ged')).toMatchObject({ bookAppearances: [6, 7] });
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/series/${series.id}/character-relationships`);
        return ((await res.json()) as { relationshipType: string; description: string }[]).map((r) => `${r.relationshipType}:${r.description}`);
      }, { timeout: 20_000 })
      .toEqual(['ally:Friends from the school on Roke']);
  });

  test('an Apprentice sees the character limit coming and the map locked; the map opens once the plan is raised', async ({ page }) => {
    const author = await signUpViaApi(page);
    const series = await createSeries(page, 'Gormenghast');
    for (const [i, name] of ['Titus', 'Fuchsia', 'Steerpike', 'Flay', 'Swelter', 'Prunesquallor', 'Irma', 'Nannie Slagg'].entries()) {
      await createCharacterViaApi(page, series.id, name, { isProtagonist: i === 0, role: i === 2 ? 'antagonist' : 'supporting' });
    }
    await openCharacters(page, 'Gormenghast');

    await expect(page.getByTestId('character-limit')).toContainText('8 of 10 characters on the Apprentice plan');
    const map = page.getByRole('region', { name: 'Character Relationship Map' });
    await expect(map.getByText('Feature Locked')).toBeVisible();
    await expect(map.getByText('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.')).toBeVisible();
    await expect(map.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/subscription');
    // The locked map cannot be reached.
    await expect(map.getByRole('button', { name: 'Add Relationship' })).toHaveCount(0);

    // The AI portrait is a premium feature on this plan.
    await page.getByRole('button', { name: 'New Character' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Character' });
    await expect(dialog.getByText('Available in Wordsmith plan and higher')).toBeVisible();
    await dialog.getByRole('button', { name: 'Generate image' }).click();
    await expect(toast(page, 'Premium Feature')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Two more reach the limit: New Character locks with the upgrade message.
    await addCharacterInDialog(page, 'Barquentine');
    await addCharacterInDialog(page, 'Sourdust');
    await expect(page.getByTestId('character-limit')).toContainText('10 of 10 characters on the Apprentice plan');
    // Worded as a limit, not as a locked feature (docs/spec-differences.md).
    await expect(page.getByTestId('character-limit')).toContainText('You have used all 10 characters your plan allows in this series.');
    await page.getByRole('button', { name: 'New Character' }).click();
    await expect(toast(page, 'Feature Locked')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The operator raises the plan; the page learns it on reload.
    await setPlan(author.username, 'wordsmith', page);
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Series' })).toHaveValue('Gormenghast', { timeout: 20_000 });
    await expect(map.getByText('Feature Locked')).toHaveCount(0);
    await expect(page.getByTestId('character-limit')).toHaveCount(0);
    await expect(map.getByRole('button', { name: 'Add Relationship' })).toBeEnabled();
    await expect(map.getByTestId('map-node')).toHaveCount(10);
    await expect(map.getByRole('button', { name: 'Titus, main character. Open details' })).toHaveAttribute('data-color', 'blue');
    await expect(map.getByRole('button', { name: 'Steerpike, antagonist. Open details' })).toHaveAttribute('data-color', 'red');
  });

  test('long names stay inside their nodes and readable in every theme, on desktop and on a phone; a shortened one shows whole on hover and focus', async ({ page }) => {
    const author = await signUpViaApi(page);
    await setPlan(author.username, 'wordsmith', page);
    const series = await createSeries(page, 'The Sunken Realm');
    const long = 'Queen Isolde of the Drowned Western Marches';
    await createCharacterViaApi(page, series.id, 'The Drowned Queen');
    await createCharacterViaApi(page, series.id, 'Maelis Weatherwright', { isProtagonist: true, role: 'protagonist' });
    await createCharacterViaApi(page, series.id, long);
    await createCharacterViaApi(page, series.id, 'Wim');
    const map = page.getByRole('region', { name: 'Character Relationship Map' });
    await openCharacters(page, 'The Sunken Realm');

    for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport);
      for (const theme of THEMES) {
        await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [STORAGE_KEYS.theme, theme] as const);
        await openCharacters(page, 'The Sunken Realm');
        await expect(map.getByTestId('map-node')).toHaveCount(4);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const where = `${theme} at ${viewport.width}×${viewport.height}`;
        // Each line of each name: within the circle at its height, at least 9 px tall, white on a dark node.
        const lines = await map.getByTestId('map-node').evaluateAll((nodes) =>
          nodes.flatMap((node) => {
            const circle = node.querySelectorAll('circle')[1]!.getBoundingClientRect();
            const cx = circle.x + circle.width / 2;
            const cy = circle.y + circle.height / 2;
            const r = circle.width / 2;
            const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
            const luminance = (css: string) => {
              const [R, G, B] = rgb(css).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)) as [number, number, number];
              return 0.2126 * R + 0.7152 * G + 0.0722 * B;
            };
            const label = node.querySelector('[data-testid="map-node-label"]')!;
            const fg = luminance(getComputedStyle(label).fill);
            const bg = luminance(getComputedStyle(node.querySelectorAll('circle')[1]!).fill);
            const contrast = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
            return Array.from(node.querySelectorAll('tspan')).map((tspan) => {
              const box = tspan.getBoundingClientRect();
              const dy = box.y + box.height / 2 - cy;
              const half = Math.sqrt(Math.max(0, r * r - dy * dy));
              const inside = box.x >= cx - half - 0.5 && box.x + box.width <= cx + half + 0.5;
              return {
                text: tspan.textContent,
                inside,
                tall: box.height >= 9,
                contrast: Math.round(contrast * 10) / 10,
                // How far past the circle's edge the line reaches (px), for the failure message.
                overflow: Math.round(Math.max(cx - half - box.x, box.x + box.width - cx - half) * 10) / 10,
              };
            });
          }),
        );
        expect(lines.filter((l) => !l.inside || !l.tall || l.contrast < 4.5), where).toEqual([]);
        expect(lines.map((l) => l.text).join('').replace(/\s+/g, ' '), where).toContain('The Drowned Queen');
      }
    }

    // The shortened name shows whole on hover and on keyboard focus.
    const node = map.getByRole('button', { name: `${long}, supporting. Open details` });
    await expect(node.getByTestId('map-node-label')).toHaveText(/…$/);
    await node.hover();
    await expect(map.getByTestId('map-node-name')).toHaveText(long);
    await page.mouse.move(0, 0);
    await expect(map.getByTestId('map-node-name')).toHaveCount(0);
    await node.focus();
    await expect(map.getByTestId('map-node-name')).toHaveText(long);
    await expect(map.getByTestId('map-node-name')).toBeInViewport({ ratio: 1 });
  });

  test('a character created offline reaches the server when the connection returns', async ({ page, context }) => {
    await signUpViaApi(page);
    const series = await createSeries(page, 'The Dispossessed');
    await createCharacterViaApi(page, series.id, 'Shevek', { isProtagonist: true, role: 'protagonist' });
    await openCharacters(page, 'The Dispossessed');
    await expect(page.getByRole('article', { name: 'Shevek' })).toBeVisible();

    await goOffline(context);
    await expect(page.getByText('Offline: changes sync when you reconnect')).toBeVisible();
    await addCharacterInDialog(page, 'Takver', async (d) => {
      await d.getByRole('switch', { name: 'Main character' }).check();
    });
    await expect(page.getByRole('article', { name: 'Takver' })).toBeVisible();
    // Not on the server yet (the API request context is not the browser's network).
    expect((await serverCharacters(page, series.id)).map((c) => c.name)).toEqual(['Shevek']);

    await goOnline(context);
    await expect
      .poll(async () => (await serverCharacters(page, series.id)).map((c) => `${c.name}:${c.isProtagonist}`).sort(), { timeout: 30_000 })
      .toEqual(['Shevek:true', 'Takver:true']);
  });
});
