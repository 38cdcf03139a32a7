/**
 * The Characters page against the real server and the built PWA (spec 001 §2 "Characters page",
 * §9 relationship map): an author on the Wordsmith plan (raised with the operator command) creates
 * characters in the dialog, marks one as main, links two with a relationship and sees the link on
 * the map; the server holds them. An Apprentice sees the map locked and the character limit coming,
 * and the map opens once the operator raises the plan. A character created offline reaches the
 * server when the connection returns.
 */
import { type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, type Author, seriousA11yViolations, setPlan, signUpViaApi, toast } from '../support';

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

async function createCharacterViaApi(page: Page, seriesId: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await page.request.post('/api/characters', { data: { seriesId, name, ...extra } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function serverCharacters(page: Page, seriesId: string): Promise<{ name: string; isProtagonist: boolean }[]> {
  const res = await page.request.get(`/api/series/${seriesId}/characters`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { name: string; isProtagonist: boolean }[];
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
      await d.getByRole('checkbox', { name: 'Book 1' }).check();
      await d.getByRole('checkbox', { name: 'Book 2' }).check();
      await d.getByRole('checkbox', { name: 'Book 3' }).check();
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
    await expect(ged.getByText('Books 1-3')).toBeVisible();
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
