/**
 * Places inside places (docs/decisions/0021-places-inside-places.md) against the real server and
 * the built PWA: an author nests three places offline, reloads offline and finds the tree and the
 * breadcrumbs, walks the tree with the keyboard, moves a place keeping the place inside it, comes
 * back online, and the author's second device shows the same nesting. The server holds it too.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, seriousA11yViolations, signInViaApi, signUpViaApi, waitForServiceWorkerControl } from '../support';

test.use({ viewport: { width: 1280, height: 860 } });

interface ServerLocation {
  id: string;
  name: string;
  parentId: string | null;
}

/** Each place's name → the name of the place it is inside on the server (null at the top level). */
async function serverNesting(request: APIRequestContext, seriesId: string): Promise<Record<string, string | null>> {
  const res = await request.get(`/api/series/${seriesId}/locations`);
  expect(res.ok()).toBe(true);
  const rows = (await res.json()) as ServerLocation[];
  const names = new Map(rows.map((l) => [l.id, l.name]));
  return Object.fromEntries(rows.map((l) => [l.name, l.parentId === null ? null : (names.get(l.parentId) ?? '?')]));
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Places' });
const treeItem = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });

/** The shown places, indented two spaces per level. */
async function shownPlaces(page: Page): Promise<string[]> {
  return tree(page)
    .getByRole('treeitem')
    .evaluateAll((items) => items.map((el) => `${'  '.repeat(Number(el.getAttribute('aria-level')) - 1)}${el.querySelector('[data-place-name]')?.textContent}`));
}

async function openWorld(page: Page): Promise<void> {
  await page.goto('/world');
  await expect(page.getByRole('heading', { name: 'World Building', level: 1 })).toBeVisible({ timeout: 20_000 });
}

async function showTree(page: Page): Promise<void> {
  await page.getByText('Tree', { exact: true }).click();
  await expect(tree(page)).toBeVisible();
}

/** New Element (or "Add a place inside …" when `inside` is given), named `name`. */
async function addPlace(page: Page, name: string, inside?: string): Promise<void> {
  if (inside) {
    await treeItem(page, inside).click();
    await page.getByRole('button', { name: `Add a place inside ${inside}` }).click();
  } else {
    await page.getByRole('button', { name: 'New Element' }).first().click();
  }
  const dialog = page.getByRole('dialog');
  if (inside) await expect(dialog.getByRole('combobox', { name: 'Inside' })).toHaveValue(new RegExp(`${inside}$`));
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add Location' }).click();
  await expect(dialog).toBeHidden();
}

test('three places nested offline survive an offline reload, move keeping what is inside, and reach a second device', async ({ page, context, browser }) => {
  // A whole journey (offline, a reload, two devices): three times the default budget under load.
  test.slow();
  const author = await signUpViaApi(page, { displayName: 'Ursula Writer' });
  const created = await page.request.post('/api/series', { data: { title: 'Earthsea', description: 'Islands', totalBooks: 1, currentBook: 1, coverImage: null } });
  expect(created.status()).toBe(201);
  const seriesId = ((await created.json()) as { id: string }).id;

  await openWorld(page);
  await waitForServiceWorkerControl(page);
  await expect(page.getByText('No Locations Found')).toBeVisible({ timeout: 20_000 });

  // Offline: three places, each inside the one before, and one more at the top level.
  await goOffline(context);
  await expect(page.getByTestId('offline-note')).toBeVisible();
  await addPlace(page, 'Earthsea');
  await showTree(page);
  await addPlace(page, 'Archipelago', 'Earthsea');
  await addPlace(page, 'Roke', 'Archipelago');
  await addPlace(page, 'Kargad Lands');
  expect(await serverNesting(page.request, seriesId)).toEqual({});

  // A reload with the network cut: the app opens from the service worker, the tree view remembered.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'World Building', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(tree(page)).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => shownPlaces(page)).toEqual(['Earthsea', 'Kargad Lands']);

  // The keyboard: Right opens, Right again goes inside, End goes to the last place shown.
  await treeItem(page, 'Earthsea').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(page, 'Archipelago')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(treeItem(page, 'Roke')).toBeFocused();
  await expect.poll(() => shownPlaces(page)).toEqual(['Earthsea', '  Archipelago', '    Roke', 'Kargad Lands']);
  const chosen = page.getByRole('region', { name: 'Chosen place' });
  await expect(chosen.getByTestId('location-path')).toHaveText('In Earthsea › Archipelago');

  // Enter opens the details, with breadcrumbs.
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  const trail = dialog.getByRole('navigation', { name: 'Where Roke is' });
  await expect(trail.getByRole('button', { name: 'Earthsea' })).toBeVisible();
  await expect(trail.getByRole('button', { name: 'Archipelago' })).toBeVisible();
  expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Move Archipelago (with Roke inside it) into Kargad Lands; Earthsea itself is not offered inside itself.
  await treeItem(page, 'Archipelago').click();
  await page.getByRole('button', { name: 'Move Archipelago' }).click();
  await dialog.getByRole('combobox', { name: 'Inside' }).click();
  await expect(page.getByRole('option', { name: 'Earthsea › Archipelago' })).toHaveCount(0);
  await page.getByRole('option', { name: 'Kargad Lands', exact: true }).click();
  await dialog.getByRole('button', { name: 'Move' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => shownPlaces(page)).toEqual(['Earthsea', 'Kargad Lands', '  Archipelago', '    Roke']);
  expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);

  // Back online: the server gets every place with its nesting.
  await goOnline(context);
  const expected = { Earthsea: null, 'Kargad Lands': null, Archipelago: 'Kargad Lands', Roke: 'Archipelago' };
  await expect.poll(() => serverNesting(page.request, seriesId), { timeout: 30_000 }).toEqual(expected);

  // The author's second device: the same tree, breadcrumbs on the cards too.
  const second = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 390, height: 844 }, hasTouch: true });
  try {
    await signInViaApi(second, author);
    const other = await second.newPage();
    await openWorld(other);
    await expect(other.getByRole('article', { name: 'Roke' }).getByTestId('location-path')).toHaveText('In Kargad Lands › Archipelago', { timeout: 20_000 });
    await showTree(other);
    await other.getByRole('button', { name: 'Expand all' }).click();
    await expect.poll(() => shownPlaces(other)).toEqual(['Earthsea', 'Kargad Lands', '  Archipelago', '    Roke']);
  } finally {
    await second.close();
  }
});
