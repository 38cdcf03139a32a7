/**
 * The World Building page against the real server and the built PWA: an author creates locations
 * through the New Element dialog, searches them, edits one through View Details and deletes one
 * after the confirmation; the server holds the result. The Apprentice limit of 10 locations per
 * series is warned before it is reached and locks New Element at 10. A location created while
 * offline reaches the server after reconnecting.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, seriousA11yViolations } from '../support';

const PASSWORD = 'lanterns-2026';
let counter = 0;

interface ServerLocation {
  id: string;
  name: string;
  locationType: string;
  importance: string;
  description: string;
  bookAppearances: number[];
}

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(path) : await request.post(path, { data });
  expect(res.ok(), `${method} ${path} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** The books of the series `authorWithSeries` makes: a trilogy. */
const TRILOGY = ['A Wizard of Earthsea', 'The Tombs of Atuan', 'The Farthest Shore'];

/** A new author signed in in the page's context, with one series of three books. */
async function authorWithSeries(page: Page, title = 'Earthsea'): Promise<{ username: string; seriesId: string }> {
  counter += 1;
  const username = `wo${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
  const reg = await page.request.post('/api/register', { data: { username, password: PASSWORD, displayName: 'Wren Writer' } });
  expect(reg.status()).toBe(201);
  const series = await api<{ id: string }>(page.request, 'POST', '/api/series', {
    title,
    description: 'Islands and wizards',
    totalBooks: 3,
    currentBook: 1,
    coverImage: null,
  });
  for (const book of TRILOGY) await api(page.request, 'POST', '/api/books', { seriesId: series.id, title: book });
  return { username, seriesId: series.id };
}

const serverLocations = (request: APIRequestContext, seriesId: string) => api<ServerLocation[]>(request, 'GET', `/api/series/${seriesId}/locations`);
const cardNames = (page: Page) => page.getByTestId('location-card').getByRole('heading').allInnerTexts();


async function openWorld(page: Page): Promise<void> {
  await page.goto('/world');
  await expect(page.getByRole('heading', { name: 'World Building', level: 1 })).toBeVisible({ timeout: 20_000 });
}

async function addLocation(page: Page, name: string, options: { type?: string; importance?: string; books?: number[]; description?: string } = {}) {
  await page.getByRole('button', { name: 'New Element' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  if (options.type) {
    await dialog.getByRole('combobox', { name: 'Location type' }).click();
    await page.getByRole('option', { name: options.type, exact: true }).click();
  }
  if (options.importance) await dialog.getByRole('radio', { name: options.importance }).check();
  for (const n of options.books ?? []) await dialog.getByRole('checkbox', { name: `Book ${n}: ${TRILOGY[n - 1]}` }).check();
  if (options.description) await dialog.getByLabel('Description').fill(options.description);
  await dialog.getByRole('button', { name: 'Add Location' }).click();
  await expect(page.getByText('Location added').first()).toBeVisible();
  await expect(dialog).toBeHidden();
}

test.describe('world building', () => {
  test('create locations, search them, edit through View Details, delete after confirming; the server has them', async ({ page }) => {
    const { seriesId } = await authorWithSeries(page);
    await openWorld(page);
    await expect(page.getByText('No Locations Found')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Series' })).toHaveValue('Earthsea');

    // The name is required.
    await page.getByRole('button', { name: 'New Element' }).first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('combobox', { name: 'Location type' })).toHaveValue('General');
    await expect(dialog.getByRole('radio', { name: 'Secondary' })).toBeChecked();
    // Book appearances: the series' own three books by title, not five numbered boxes.
    await expect(dialog.getByRole('checkbox', { name: /^Book \d+/ })).toHaveCount(3);
    await expect(dialog.getByText('Book 1: A Wizard of Earthsea')).toBeVisible();
    await expect(dialog.getByText('Book 3: The Farthest Shore')).toBeVisible();
    await dialog.getByRole('button', { name: 'Add Location' }).click();
    await expect(dialog.getByText('Location name is required')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await addLocation(page, 'Roke', { type: 'Island', importance: 'Main', books: [1, 3], description: 'The school of wizards' });
    await addLocation(page, 'Havnor', { type: 'City', books: [2] });
    await addLocation(page, 'The Tombs of Atuan', { type: 'Ruins', importance: 'Minor', description: 'A labyrinth under the desert' });
    await expect.poll(() => cardNames(page)).toEqual(['Roke', 'Havnor', 'The Tombs of Atuan']);
    await expect(page.getByTestId('location-limit')).toContainText('3 of 10 locations on the Apprentice plan');
    const roke = page.getByRole('article', { name: 'Roke' });
    await expect(roke.getByText('Island')).toBeVisible();
    await expect(roke.getByTestId('location-appearances')).toHaveText('Books 1, 3');

    // Search: name, description or type.
    const search = page.getByRole('searchbox', { name: 'Search locations' });
    await search.fill('labyrinth');
    await expect.poll(() => cardNames(page)).toEqual(['The Tombs of Atuan']);
    await search.fill('CITY');
    await expect.poll(() => cardNames(page)).toEqual(['Havnor']);
    await search.fill('Selidor');
    await expect(page.getByText('No Locations Found')).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect.poll(() => cardNames(page)).toHaveLength(3);

    expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);

    // View Details opens the edit dialog.
    await page.getByRole('button', { name: 'View details of Havnor' }).click();
    await expect(dialog.getByRole('heading', { name: 'Edit Location' })).toBeVisible();
    await dialog.getByLabel('Description').fill('The great port at the heart of the world');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Location updated')).toBeVisible();
    await expect(page.getByRole('article', { name: 'Havnor' }).getByText('The great port at the heart of the world')).toBeVisible();

    // Delete asks first.
    await page.getByRole('button', { name: 'Delete The Tombs of Atuan' }).click();
    await expect(dialog.getByText('Are you sure you want to delete this location? This action cannot be undone.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Location deleted')).toBeVisible();
    await expect.poll(() => cardNames(page)).toEqual(['Roke', 'Havnor']);

    // The server holds exactly what the page shows.
    await expect
      .poll(async () => (await serverLocations(page.request, seriesId)).map((l) => l.name).sort(), { timeout: 20_000 })
      .toEqual(['Havnor', 'Roke']);
    await expect
      .poll(async () => (await serverLocations(page.request, seriesId)).find((l) => l.name === 'Havnor')?.description, { timeout: 20_000 })
      .toBe('The great port at the heart of the world');
    const rokeRow = (await serverLocations(page.request, seriesId)).find((l) => l.name === 'Roke')!;
    expect(rokeRow).toMatchObject({ locationType: 'island', importance: 'main', bookAppearances: [1, 3], description: 'The school of wizards' });

    // Other categories are world entries (docs/decisions/0020-world-entries.md): on the Apprentice
    // plan the tab is shown locked with the upgrade prompt, never "Coming Soon".
    await page.getByRole('tab', { name: 'Magic Systems' }).click();
    await expect(page.getByText('Feature Locked')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Upgrade' })).toBeVisible();
    await expect(page.getByText('Coming Soon')).toHaveCount(0);

    // After a reload everything is still there; the open tab is in the address, so it stays open.
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Magic Systems', selected: true })).toBeVisible({ timeout: 20_000 });
    await page.getByRole('tab', { name: /Locations/ }).click();
    await expect.poll(() => cardNames(page), { timeout: 20_000 }).toEqual(['Roke', 'Havnor']);
  });

  test('the Apprentice limit: warned at 8 of 10, New Element locked at 10 with the upgrade message', async ({ page }) => {
    const { seriesId } = await authorWithSeries(page, 'Crowded World');
    for (let i = 1; i <= 8; i += 1) await api(page.request, 'POST', '/api/locations', { seriesId, name: `Place ${i}` });
    await openWorld(page);
    await expect(page.getByTestId('location-limit')).toContainText('8 of 10 locations on the Apprentice plan');
    await expect(page.getByTestId('location-limit')).toContainText('You can add 2 more locations');
    await addLocation(page, 'Place 9');
    await addLocation(page, 'Place 10');
    await expect(page.getByTestId('location-limit')).toContainText('10 of 10 locations on the Apprentice plan');
    // Worded as a limit, not as a locked feature (docs/spec-differences.md).
    await expect(page.getByTestId('location-limit')).toContainText('You have used all 10 locations your plan allows in this series.');
    await expect(page.getByRole('button', { name: 'New Element' })).toBeDisabled();
    await expect(page.getByTestId('location-limit').getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/subscription');
    // The server agrees: an eleventh is refused.
    const refused = await page.request.post('/api/locations', { data: { seriesId, name: 'Place 11' } });
    expect(refused.status()).toBe(403);
  });

  test('a location created offline reaches the server after reconnecting', async ({ page, context }) => {
    const { seriesId } = await authorWithSeries(page, 'Offline World');
    await openWorld(page);
    await expect(page.getByText('No Locations Found')).toBeVisible();

    await goOffline(context);
    await expect(page.getByTestId('offline-note')).toBeVisible();
    await addLocation(page, 'Selidor', { type: 'Island', books: [3] });
    await expect.poll(() => cardNames(page)).toEqual(['Selidor']);
    // Nothing reached the server yet (the test's own API client is not affected by the page being offline).
    expect(await serverLocations(page.request, seriesId)).toEqual([]);

    await goOnline(context);
    await expect
      .poll(async () => (await serverLocations(page.request, seriesId)).map((l) => `${l.name}:${l.locationType}:${l.bookAppearances.join()}`), {
        timeout: 30_000,
      })
      .toEqual(['Selidor:island:3']);
    await expect(page.getByTestId('offline-note')).toBeHidden();
  });
});
