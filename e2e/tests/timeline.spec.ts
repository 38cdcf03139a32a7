/**
 * The Timeline page against the real server and the built PWA.
 *
 * - An Apprentice sees the timeline locked behind the feature gate; after the operator raises the
 *   plan (`pnpm cli user:plan`) and the page is reloaded, it opens.
 * - A Wordsmith author creates events across two books and none through the dialog, switches the
 *   Chronological, Narrative and Character-Based views, reorders events within a book by KEYBOARD
 *   drag, and the new order survives a reload and is what the server holds.
 * - An event created offline reaches the server after reconnecting.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, keyboardDrag, seriousA11yViolations } from '../support';

const PASSWORD = 'lanterns-2026';
const REPO = path.resolve(import.meta.dirname, '../..');
let counter = 0;

interface ServerEvent {
  id: string;
  title: string;
  date: string;
  bookId: string | null;
  position: number;
  characterIds: string[];
}

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', urlPath: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(urlPath) : await request.post(urlPath, { data });
  expect(res.ok(), `${method} ${urlPath} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/**
 * The operator command that changes a plan, on the e2e server's database (playwright.config.ts).
 * The running server reads sessions through a short cache (up to 10 s), so wait until the signed-in
 * user is reported on the new plan: that is what the page sees after a reload.
 */
async function setPlan(page: Page, username: string, plan: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (see e2e/playwright.config.ts)');
  const out = execFileSync('pnpm', ['--filter', '@chronicler/sync-server', 'cli', 'user:plan', '--username', username, '--plan', plan], {
    cwd: REPO,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  expect(out).toContain(`${username} is now on the ${plan} plan`);
  await expect
    .poll(async () => ((await (await page.request.get('/api/user')).json()) as { plan?: string }).plan, { timeout: 20_000 })
    .toBe(plan);
}

interface Story {
  username: string;
  seriesId: string;
  book1: string;
  book2: string;
  characters: Record<string, string>;
}

/** A new author signed in in the page's context, with a series of two books and two characters. */
async function newStory(page: Page): Promise<Story> {
  counter += 1;
  const username = `tl${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
  const reg = await page.request.post('/api/register', { data: { username, password: PASSWORD, displayName: 'Tolkien Writer' } });
  expect(reg.status()).toBe(201);
  const series = await api<{ id: string }>(page.request, 'POST', '/api/series', {
    title: 'Middle-earth',
    description: 'A long journey',
    totalBooks: 3,
    currentBook: 1,
    coverImage: null,
  });
  const book1 = await api<{ id: string }>(page.request, 'POST', '/api/books', {
    seriesId: series.id,
    title: 'The Hobbit',
    description: 'There and back again',
    position: 1,
  });
  const book2 = await api<{ id: string }>(page.request, 'POST', '/api/books', { seriesId: series.id, title: 'The Fellowship', description: '', position: 2 });
  const characters: Record<string, string> = {};
  for (const name of ['Bilbo', 'Frodo']) {
    characters[name] = (await api<{ id: string }>(page.request, 'POST', '/api/characters', { seriesId: series.id, name })).id;
  }
  return { username, seriesId: series.id, book1: book1.id, book2: book2.id, characters };
}

const serverTimeline = (request: APIRequestContext, seriesId: string) => api<ServerEvent[]>(request, 'GET', `/api/series/${seriesId}/timeline`);

/** Titles of a book's events as the server orders them: "1. title". */
async function serverOrder(request: APIRequestContext, seriesId: string, bookId: string): Promise<string[]> {
  const events = await serverTimeline(request, seriesId);
  return events
    .filter((e) => e.bookId === bookId)
    .sort((a, b) => a.position - b.position)
    .map((e) => `${e.position}. ${e.title}`);
}


async function openTimeline(page: Page): Promise<void> {
  await page.goto('/timeline');
  await expect(page.getByRole('heading', { name: 'Timeline', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Chart the chronology of your story')).toBeVisible();
}

async function choose(page: Page, combobox: string, option: string): Promise<void> {
  await page.getByRole('dialog').getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function addEvent(page: Page, event: { title: string; date?: string; book?: string; characters?: string[]; importance?: string; plotPoint?: boolean }) {
  const opener = page.getByRole('button', { name: 'Add First Event' });
  if (await opener.isVisible()) await opener.click();
  else await page.getByRole('button', { name: 'Add Event' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Add Event' })).toBeVisible();
  await dialog.getByLabel('Title').fill(event.title);
  if (event.date) await dialog.getByLabel('Date').fill(event.date);
  if (event.book) await choose(page, 'Book', event.book);
  for (const name of event.characters ?? []) await choose(page, 'Characters', name);
  if (event.importance) await choose(page, 'Importance', event.importance);
  if (event.plotPoint) await dialog.getByRole('switch', { name: /Plot point/ }).check({ force: true });
  await dialog.getByRole('button', { name: 'Create Event' }).click();
  await expect(page.getByText('Event created successfully').first()).toBeVisible();
  await expect(dialog).toBeHidden();
}

const titles = (page: Page) => page.getByTestId('event-title').allInnerTexts();
const group = (page: Page, label: string) => page.getByTestId('narrative-group').filter({ has: page.getByRole('heading', { name: label, exact: true }) });

test.describe('timeline', () => {
  test('an Apprentice sees the lock; after the operator raises the plan the timeline opens', async ({ page }) => {
    const story = await newStory(page);
    await openTimeline(page);
    await expect(page.getByText('Feature Locked')).toBeVisible();
    await expect(page.getByText('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/subscription');
    await expect(page.getByRole('button', { name: 'Add Event' })).toBeDisabled();
    // The server refuses the write as well.
    const refused = await page.request.post('/api/timeline-events', { data: { seriesId: story.seriesId, title: 'Too early' } });
    expect(refused.status()).toBe(403);

    await setPlan(page, story.username, 'wordsmith');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Timeline', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('No Timeline Events')).toBeVisible();
    await expect(page.getByText('Feature Locked')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add Event' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Add First Event' })).toBeVisible();
  });

  test('events across two books: three views, keyboard drag within a book, the order survives a reload and reaches the server', async ({ page }) => {
    // Five events through the dialog, three views, a drag and a reload: a long walk.
    test.setTimeout(180_000);
    const story = await newStory(page);
    await setPlan(page, story.username, 'wordsmith');
    await openTimeline(page);
    await expect(page.getByRole('combobox', { name: 'Series' })).toHaveValue('Middle-earth');
    await expect(page.getByText('No Timeline Events')).toBeVisible();

    // The title is required.
    await page.getByRole('button', { name: 'Add First Event' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Create Event' }).click();
    await expect(page.getByRole('dialog').getByText('Title is required')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();

    await addEvent(page, { title: 'An unexpected party', date: 'TA 2941 April', book: 'Book 1: The Hobbit', characters: ['Bilbo'] });
    await addEvent(page, { title: 'Riddles in the dark', date: 'TA 2941 July', book: 'Book 1: The Hobbit', characters: ['Bilbo'] });
    await addEvent(page, { title: 'Battle of Five Armies', date: 'TA 2941 November', book: 'Book 1: The Hobbit', importance: 'Major', plotPoint: true });
    await addEvent(page, { title: 'The long-expected party', date: 'TA 3001', book: 'Book 2: The Fellowship', characters: ['Bilbo', 'Frodo'] });
    await addEvent(page, { title: 'The Ring is forged' });

    // Chronological: the dates in order, the undated event of no book first.
    await expect
      .poll(() => titles(page))
      .toEqual(['The Ring is forged', 'An unexpected party', 'Riddles in the dark', 'Battle of Five Armies', 'The long-expected party']);
    await expect(page.getByTestId('line-date').first()).toHaveText('Undated');
    const battle = page.getByRole('article', { name: 'Battle of Five Armies' });
    await expect(battle.getByText('Plot Point')).toBeVisible();
    await expect(battle.getByTestId('event-importance')).toHaveText('Major');

    // Narrative: grouped by book, General Events last, each book with its card.
    await page.getByRole('tab', { name: 'Narrative' }).click();
    await expect(page.getByTestId('narrative-group').getByRole('heading', { level: 3 })).toHaveText([
      'Book 1: The Hobbit',
      'Book 2: The Fellowship',
      'General Events',
    ]);
    const hobbit = group(page, 'Book 1: The Hobbit');
    await expect(hobbit.getByTestId('group-book')).toContainText('There and back again');
    await expect(hobbit.getByTestId('group-book')).toContainText('In Progress');
    await expect(group(page, 'Book 2: The Fellowship').getByTestId('group-book')).toContainText('No description provided');
    await expect(hobbit.getByTestId('event-title')).toHaveText(['An unexpected party', 'Riddles in the dark', 'Battle of Five Armies']);
    await expect(page.getByText('Timeline Drag & Drop Enabled')).toBeVisible();

    expect(await seriousA11yViolations(page, { include: 'main' })).toEqual([]);

    // Keyboard drag within The Hobbit: the first event to the end.
    await keyboardDrag(hobbit.getByRole('button', { name: 'Reorder event An unexpected party' }), { direction: 'down', steps: 2 });
    const reordered = ['Riddles in the dark', 'Battle of Five Armies', 'An unexpected party'];
    await expect(hobbit.getByTestId('event-title')).toHaveText(reordered);
    await expect(page.getByText('Timeline updated')).toBeVisible();
    // The other groups did not move.
    await expect(group(page, 'Book 2: The Fellowship').getByTestId('event-title')).toHaveText(['The long-expected party']);

    // The server has the book's events renumbered from 1 in the new order.
    await expect
      .poll(() => serverOrder(page.request, story.seriesId, story.book1), { timeout: 20_000 })
      .toEqual(reordered.map((t, i) => `${i + 1}. ${t}`));

    // Reload: the narrative order is still the new one.
    await page.reload();
    await page.getByRole('tab', { name: 'Narrative' }).click({ timeout: 20_000 });
    await expect(group(page, 'Book 1: The Hobbit').getByTestId('event-title')).toHaveText(reordered);

    // Character-Based: every event until a character is chosen.
    await page.getByRole('tab', { name: 'Character-Based' }).click();
    const selector = page.getByRole('combobox', { name: 'Character', exact: true });
    await expect(selector).toHaveAttribute('placeholder', 'Select character');
    await expect.poll(async () => (await titles(page)).length).toBe(5);
    await selector.click();
    await page.getByRole('option', { name: 'Frodo', exact: true }).click();
    await expect.poll(() => titles(page)).toEqual(['The long-expected party']);
    await selector.click();
    await page.getByRole('option', { name: 'Bilbo', exact: true }).click();
    await expect.poll(() => titles(page)).toEqual(['An unexpected party', 'Riddles in the dark', 'The long-expected party']);
    await selector.click();
    await page.getByRole('option', { name: 'All Characters', exact: true }).click();
    await expect.poll(async () => (await titles(page)).length).toBe(5);

    // Delete asks first.
    await page.getByRole('button', { name: 'Delete The Ring is forged' }).click();
    await expect(page.getByRole('dialog').getByText('Are you sure you want to delete this timeline event?')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Event deleted')).toBeVisible();
    await expect
      .poll(async () => (await serverTimeline(page.request, story.seriesId)).map((e) => e.title).sort(), { timeout: 20_000 })
      .toEqual(['An unexpected party', 'Battle of Five Armies', 'Riddles in the dark', 'The long-expected party']);
  });

  test('back-story on the timeline: "Year -60" and "61 BCE" before "Year 9" and "Year 11", an undated event in its narrative place, the same order for a character', async ({ page }) => {
    const story = await newStory(page);
    await setPlan(page, story.username, 'wordsmith');
    const { Bilbo, Frodo } = story.characters;
    const events = [
      { title: 'The party', date: 'Year 11', bookId: story.book1, position: 1, characterIds: [Bilbo, Frodo] },
      { title: 'That night', date: '', bookId: story.book1, position: 2, characterIds: [Bilbo] },
      { title: 'A letter', date: 'Year 9', bookId: story.book1, position: 3, characterIds: [Frodo] },
      { title: 'The flashback', date: 'Year -60', bookId: story.book2, position: 1, characterIds: [Bilbo] },
      { title: 'Long ago', date: '61 BCE', bookId: story.book2, position: 2, characterIds: [] },
    ];
    for (const event of events) await api(page.request, 'POST', '/api/timeline-events', { seriesId: story.seriesId, ...event });
    await openTimeline(page);

    const chronological = ['Long ago', 'The flashback', 'A letter', 'The party', 'That night'];
    await expect.poll(() => titles(page), { timeout: 20_000 }).toEqual(chronological);
    await expect(page.getByTestId('line-date')).toHaveText(['61 BCE', 'Year -60', 'Year 9', 'Year 11', 'Undated']);

    await page.getByRole('tab', { name: 'Character-Based' }).click();
    await expect.poll(() => titles(page)).toEqual(chronological);
    const selector = page.getByRole('combobox', { name: 'Character', exact: true });
    await selector.click();
    await page.getByRole('option', { name: 'Bilbo', exact: true }).click();
    await expect.poll(() => titles(page)).toEqual(['The flashback', 'The party', 'That night']);
  });

  test('pointer drag starts only after 8 px of movement, then reorders within the book', async ({ page }) => {
    const story = await newStory(page);
    await setPlan(page, story.username, 'wordsmith');
    for (const [i, title] of ['Dawn', 'Noon', 'Dusk'].entries()) {
      await api(page.request, 'POST', '/api/timeline-events', { seriesId: story.seriesId, title, bookId: story.book1, position: i + 1 });
    }
    // Tall enough that the drag stays clear of the edges (the library scrolls the page near them).
    await page.setViewportSize({ width: 1280, height: 1200 });
    await openTimeline(page);
    await page.getByRole('tab', { name: 'Narrative' }).click();
    const hobbit = group(page, 'Book 1: The Hobbit');
    await expect(hobbit.getByTestId('event-title')).toHaveText(['Dawn', 'Noon', 'Dusk']);

    const handle = hobbit.getByRole('button', { name: 'Reorder event Dawn' });
    const box = (await handle.boundingBox())!;
    const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    // 6 px: still a press, nothing lifts.
    await page.mouse.move(start.x, start.y + 6, { steps: 3 });
    await page.waitForTimeout(100);
    await expect(hobbit.locator('article[data-dragging]')).toHaveCount(0);
    // Past 8 px the drag starts; carry it over the last event and drop.
    await page.mouse.move(start.x, start.y + 12, { steps: 3 });
    await expect(hobbit.locator('article[data-dragging]')).toHaveCount(1);
    const dusk = (await hobbit.getByRole('article', { name: 'Dusk' }).boundingBox())!;
    await page.mouse.move(start.x, dusk.y + dusk.height * 0.75, { steps: 12 });
    await page.waitForTimeout(200);
    await page.mouse.up();
    await expect(hobbit.getByTestId('event-title')).toHaveText(['Noon', 'Dusk', 'Dawn']);
    await expect
      .poll(() => serverOrder(page.request, story.seriesId, story.book1), { timeout: 20_000 })
      .toEqual(['1. Noon', '2. Dusk', '3. Dawn']);
  });

  test('an event created offline reaches the server after reconnecting', async ({ page, context }) => {
    const story = await newStory(page);
    await setPlan(page, story.username, 'wordsmith');
    await openTimeline(page);
    await expect(page.getByText('No Timeline Events')).toBeVisible();

    await goOffline(context);
    await expect(page.getByTestId('offline-note')).toBeVisible();
    await addEvent(page, { title: 'Written on the road', date: 'TA 3018', book: 'Book 2: The Fellowship', characters: ['Frodo'] });
    await expect(page.getByRole('article', { name: 'Written on the road' })).toBeVisible();
    // Nothing reached the server yet (the test's own API client is not affected by the page being offline).
    expect(await serverTimeline(page.request, story.seriesId)).toEqual([]);

    await goOnline(context);
    await expect
      .poll(async () => (await serverTimeline(page.request, story.seriesId)).map((e) => [e.title, e.date, e.bookId, e.characterIds.join()]), {
        timeout: 30_000,
      })
      .toEqual([['Written on the road', 'TA 3018', story.book2, story.characters.Frodo]]);
    await expect(page.getByTestId('offline-note')).toBeHidden();
  });
});
