/**
 * Opening the app offline (docs/web.md#opening-offline): once the service worker has
 * installed and controls the page, an author who signed in earlier reloads with the network cut
 * and the app opens from the service worker, signed in as the remembered user, with the offline
 * state in the sync indicator; screens still open; when the network returns the indicator says so.
 */
import { type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, STORAGE_KEYS, signUpViaApi, waitForServiceWorkerControl } from '../support';
import { expectReopenedAtCaret, longChapter, readToEndAndWrite } from '../support/long-chapter';
import { api, editorUrl, newStory, openEditor } from '../support/story';

test.use({ viewport: { width: 1280, height: 860 } });

const indicator = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' }).getByTestId('sync-indicator');

test('with the network cut, a reload opens the app from the service worker, signed in; back online the indicator follows', async ({
  page,
  context,
}) => {
  const author = await signUpViaApi(page, { displayName: 'Jules Verne' });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome back, Jules' })).toBeVisible();
  await waitForServiceWorkerControl(page);
  await expect(page.getByRole('heading', { name: 'Welcome back, Jules' })).toBeVisible();
  // The worker leaves /api to the browser (web/vite.config.ts): answered by the worker, a request
  // sent as the page goes away (the chapter's presence goodbye at `pagehide`) never arrived.
  const [health] = await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === '/api/health'),
    page.evaluate(() => fetch('/api/health').then((response) => response.status)),
  ]);
  expect(health.fromServiceWorker()).toBe(false);
  await expect(indicator(page)).toHaveAttribute('data-online', 'true');
  await expect(indicator(page)).toHaveAccessibleName(/^Sync status: (Online|Syncing)/);
  // The user the app will fall back on offline.
  expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.lastUser)) ?? 'null')).toMatchObject({
    username: author.username,
  });

  await goOffline(context);
  expect(await page.evaluate(() => fetch('/api/health').then(() => 'reached', () => 'unreachable'))).toBe('unreachable');
  await page.reload();

  // The shell came from the service worker, and the remembered author is signed in.
  await expect(page.getByRole('heading', { name: 'Welcome back, Jules' })).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const aside = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(aside.getByTestId('sidebar-user-name')).toHaveText('Jules Verne');
  await expect(indicator(page)).toHaveAttribute('data-online', 'false');
  await expect(indicator(page)).toHaveText('Offline');
  await indicator(page).click();
  await expect(page.getByText('Offline — your work is kept on this device')).toBeVisible();
  await page.keyboard.press('Escape');

  // Other screens open offline too (their code is precached).
  await aside.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Series', exact: true }).click();
  await expect(page).toHaveURL(/\/series$/);
  await expect(page.getByRole('heading', { name: 'Series', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(indicator(page)).toHaveText('Offline');
  // A fresh navigation (not a client-side one) to a deep link works offline as well.
  await page.goto('/subscriptions');
  await expect(page.getByRole('heading', { name: 'Subscription Plans', level: 1 })).toBeVisible({ timeout: 20_000 });

  // Meanwhile the author's other device adds a series on the server.
  const created = await page.request.post('/api/series', {
    data: { title: 'Twenty Thousand Leagues', description: 'Under the sea', totalBooks: 2, currentBook: 1, coverImage: null },
  });
  expect(created.status()).toBe(201);

  // Back online: the indicator says so, and the app pulls what changed while it was away.
  await goOnline(context);
  await expect(indicator(page)).toHaveAttribute('data-online', 'true', { timeout: 20_000 });
  await expect(indicator(page)).toHaveAccessibleName(/^Sync status: (Online|Syncing)/);
  await aside.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(aside.getByTestId('current-series')).toContainText('Twenty Thousand Leagues', { timeout: 20_000 });
  await expect(aside.getByTestId('sidebar-user-name')).toHaveText('Jules Verne');
});

test('signed out, the app still opens offline: the sign-in page, not a browser error', async ({ page, context }) => {
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
  await waitForServiceWorkerControl(page);

  await goOffline(context);
  await page.goto('/');
  // Nobody remembered on this device: the protected page sends the visitor to /auth, from the cache.
  await expect(page).toHaveURL(/\/auth$/, { timeout: 20_000 });
  await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
  await goOnline(context);
});

test('a 20,000-word chapter offline: read to its end, written there, reopened offline where the caret was, synced on reconnect', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const chapter = longChapter(20_000);
  const story = await newStory(context, chapter.text);
  await openEditor(page, editorUrl(story));
  await waitForServiceWorkerControl(page);
  await openEditor(page, editorUrl(story));

  await goOffline(context);
  await readToEndAndWrite(page, chapter, ' The train left the tunnel.');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByText('Chapter saved')).toBeVisible();

  await page.reload();
  await expectReopenedAtCaret(page, ' The train left the tunnel.', ' Fields ran past.');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByText('Chapter saved').first()).toBeVisible();

  await goOnline(context);
  await expect
    .poll(async () => (await api<{ content: string }>(page.request, 'GET', `/api/chapters/${story.chapterId}`)).content, { timeout: 30_000 })
    .toBe(`${chapter.text} The train left the tunnel. Fields ran past.`);
});
