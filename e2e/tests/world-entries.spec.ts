/**
 * World entries against the real server and the built PWA (docs/decisions/0020-world-entries.md):
 * an author creates an entry of every kind offline, each with a link, reloads offline and finds
 * them all; back online they reach the server with their links, another device of the author's
 * shows them with the links on both sides, and a viewer of the series reads them without being
 * able to change them.
 */
import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, seriousA11yViolations, setPlan, signInViaApi, signUpViaApi, toast, uniqueUsername, waitForServiceWorkerControl } from '../support';
import { api } from '../support/story';

test.use({ viewport: { width: 1280, height: 900 } });

interface ServerEntry {
  id: string;
  category: string;
  name: string;
  characterIds: string[];
  locationIds: string[];
  entryIds: string[];
  leaderId: string | null;
  allyIds: string[];
}

/** Each tab, the entry made in it, and the link it gets: a place, a character or the culture. */
const ENTRIES = [
  { tab: 'Cultures', one: 'Culture', name: 'Reed folk', link: { field: 'Places', option: 'Saltmere' } },
  { tab: 'Magic Systems', one: 'Magic system', name: 'Saltcraft', link: { field: 'Characters', option: 'Mara' } },
  { tab: 'Flora & Fauna', one: 'Species', name: 'Marsh wyrm', link: { field: 'Places', option: 'Saltmere' } },
  { tab: 'Technology', one: 'Technology', name: 'Tide loom', link: { field: 'Related entries', option: 'Reed folk (Culture)' } },
  { tab: 'Politics', one: 'Faction', name: 'Salt Guild', link: { field: 'Leader', option: 'Mara' } },
] as const;

async function openWorldTab(page: Page, tab: string): Promise<void> {
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('tab', { name: tab, selected: true })).toBeVisible();
}

async function addEntry(page: Page, entry: (typeof ENTRIES)[number]): Promise<void> {
  await openWorldTab(page, entry.tab);
  await page.getByRole('button', { name: `New ${entry.one}` }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill(entry.name);
  await dialog.getByRole('combobox', { name: entry.link.field }).click();
  await page.getByRole('option', { name: entry.link.option }).click();
  // Closes a list that stays open (never Escape: it would close the dialog).
  await dialog.getByRole('textbox', { name: 'Name' }).click();
  await dialog.getByRole('button', { name: `Add ${entry.one}` }).click();
  await expect(toast(page, `${entry.one} added`).last()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: `View details of ${entry.name}` })).toBeVisible();
}

async function newContext(page: Page): Promise<BrowserContext> {
  return page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 900 } });
}

test('an entry of every kind made offline with a link, kept through an offline reload, synced to a second device, read by a viewer', async ({ page, context }) => {
  test.setTimeout(240_000);
  const owner = await signUpViaApi(page, { displayName: 'Olga Owner', email: `${uniqueUsername('owner')}@example.com` });
  // Loremaster: advanced world building, and a series to share.
  await setPlan(owner.username, 'loremaster', page);
  const series = await api<{ id: string }>(page.request, 'POST', '/api/series', { title: 'The Salt Road', description: 'Tides', totalBooks: 1, currentBook: 1, coverImage: null });
  await api(page.request, 'POST', '/api/books', { seriesId: series.id, title: 'Book One' });
  const mara = await api<{ id: string }>(page.request, 'POST', '/api/characters', { seriesId: series.id, name: 'Mara' });
  const saltmere = await api<{ id: string }>(page.request, 'POST', '/api/locations', { seriesId: series.id, name: 'Saltmere' });

  await page.goto('/world');
  await expect(page.getByRole('heading', { name: 'World Building', level: 1 })).toBeVisible({ timeout: 20_000 });
  await waitForServiceWorkerControl(page);
  // Every tab's code is on the device before the network goes.
  for (const { tab } of ENTRIES) await openWorldTab(page, tab);
  await expect(page.getByText('No Politics Yet')).toBeVisible({ timeout: 20_000 });

  await goOffline(context);
  for (const entry of ENTRIES) await addEntry(page, entry);

  // The offline reload finds every entry on the device.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'World Building', level: 1 })).toBeVisible({ timeout: 20_000 });
  for (const entry of ENTRIES) {
    await openWorldTab(page, entry.tab);
    await expect(page.getByRole('button', { name: `View details of ${entry.name}` })).toBeVisible({ timeout: 20_000 });
  }

  await goOnline(context);
  await expect
    .poll(async () => (await api<ServerEntry[]>(page.request, 'GET', `/api/series/${series.id}/world-entries`)).map((e) => e.name).sort(), { timeout: 30_000 })
    .toEqual(ENTRIES.map((e) => e.name).sort());
  const rows = await api<ServerEntry[]>(page.request, 'GET', `/api/series/${series.id}/world-entries`);
  const byName = new Map(rows.map((r) => [r.name, r]));
  expect(byName.get('Reed folk')).toMatchObject({ category: 'culture', locationIds: [saltmere.id] });
  expect(byName.get('Saltcraft')).toMatchObject({ category: 'magicSystem', characterIds: [mara.id] });
  expect(byName.get('Marsh wyrm')).toMatchObject({ category: 'floraFauna', locationIds: [saltmere.id] });
  expect(byName.get('Tide loom')).toMatchObject({ category: 'technology', entryIds: [byName.get('Reed folk')!.id] });
  expect(byName.get('Salt Guild')).toMatchObject({ category: 'politics', leaderId: mara.id });

  // The author's second device: the entries and both sides of their links.
  const second = await newContext(page);
  const other = await second.newPage();
  await signInViaApi(other, owner);
  await other.goto('/world?tab=cultures');
  await expect(other.getByRole('button', { name: 'View details of Reed folk' })).toBeVisible({ timeout: 30_000 });
  expect(await seriousA11yViolations(other)).toEqual([]);
  await other.getByRole('button', { name: 'View details of Reed folk' }).click();
  const dialog = other.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Edit Culture' })).toBeVisible();
  expect(await seriousA11yViolations(other, { include: '[role="dialog"]' })).toEqual([]);
  // The technology that links the culture, seen from the culture.
  await expect(dialog.getByRole('button', { name: 'Tide loom' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The place's side: the culture and the species that name Saltmere.
  await other.getByRole('tab', { name: /Locations/ }).click();
  await other.getByRole('button', { name: 'View details of Saltmere' }).click();
  const linked = other.getByRole('dialog').getByTestId('linked-world-entries');
  await expect(linked.getByRole('link', { name: 'Reed folk' })).toBeVisible();
  await expect(linked.getByRole('link', { name: 'Marsh wyrm' })).toBeVisible();
  await linked.getByRole('link', { name: 'Marsh wyrm' }).click();
  await expect(other.getByRole('dialog').getByRole('heading', { name: 'Edit Species' })).toBeVisible();
  await second.close();

  // A viewer of the series reads the world and cannot change it.
  const viewerContext = await newContext(page);
  const viewerPage = await viewerContext.newPage();
  const viewer = await signUpViaApi(viewerPage, { displayName: 'Vera Viewer', email: `${uniqueUsername('viewer')}@example.com` });
  const invite = await api<{ id: string }>(page.request, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: viewer.email, role: 'viewer' });
  await api(viewerPage.request, 'POST', `/api/collaboration/invites/${invite.id}/accept`, {});
  // Their only series: the page shows it.
  await viewerPage.goto('/world?tab=politics');
  await expect(viewerPage.getByRole('button', { name: 'View details of Salt Guild' })).toBeVisible({ timeout: 30_000 });
  await expect(viewerPage.getByTestId('read-only-notice')).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: 'New Faction' })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Delete Salt Guild' })).toHaveCount(0);
  await viewerPage.getByRole('button', { name: 'View details of Salt Guild' }).click();
  const details = viewerPage.getByRole('dialog');
  await expect(details.getByRole('heading', { name: 'Faction Details' })).toBeVisible();
  await expect(details.getByRole('textbox', { name: 'Name' })).toBeDisabled();
  await expect(details.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  // The server refuses the viewer's write too.
  const refused = await viewerPage.request.put(`/api/world-entries/${byName.get('Salt Guild')!.id}`, { data: { goals: 'Mine' } });
  expect(refused.status()).toBe(403);
  await viewerContext.close();
});
