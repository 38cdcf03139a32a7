/**
 * The first load (docs/web.md#first-load), in Chromium against the real server and the real build:
 * - a first visit asks no GET /api/user (so no 401 in the console) and logs no console error;
 * - the JavaScript the browser fetches for `/auth`, and for `/` signed in, is exactly what the
 *   size check counts (web/first-route-budget.json + the build manifest), so its budget cannot
 *   drift from what the app really loads; only the service-worker prompt may follow, after `load`,
 *   and, on `/`, the budget file's afterPaintModules, asked for only once the shell and the
 *   dashboard's outline have painted;
 * - the files come compressed (brotli).
 */
import path from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { readConfig, readManifest, routeChunks } from '../../web/scripts/first-route-size.mjs';
import { signUpViaApi } from '../support';

const dist = process.env.E2E_WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist');
const manifest = readManifest(dist);
const budgets = readConfig();
/**
 * Loaded a few seconds after the first screen by design (web/src/lib/first-load `afterFirstScreen`): the
 * service worker's update prompt (app/App.tsx) and the toast stack (components/ToastRegion.tsx; a
 * toast before it arrives, or offline, is drawn plainly).
 */
const AFTER_LOAD = ['src/app/UpdatePrompt.tsx', 'src/components/ToastStack.tsx'];

function expectedJs(route: string): Set<string> {
  return new Set(routeChunks(manifest, budgets[route]!.lazyModules).map((file) => `/${file}`));
}

/** Records the page's own JavaScript requests (not the service worker's precaching) and console errors. */
function watch(page: Page) {
  const scripts: string[] = [];
  const encodings = new Map<string, string | undefined>();
  const apiCalls: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (request.serviceWorker()) return;
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${url.pathname}`);
    if (url.pathname.endsWith('.js') && request.resourceType() === 'script') scripts.push(url.pathname);
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) encodings.set(url.pathname, response.headers()['content-encoding']);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { scripts, encodings, apiCalls, errors };
}

/** A module's files with everything it imports, statically or lazily. */
function everythingOf(keys: string[], into = new Set<string>()): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key]!;
    if (into.has(`/${chunk.file}`)) continue;
    into.add(`/${chunk.file}`);
    everythingOf([...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])], into);
  }
  return into;
}

function unexpected(loaded: string[], route: string): string[] {
  const allowed = expectedJs(route);
  // What the route loads after its first paint by design (the budget file's afterPaintModules).
  const afterPaint = (budgets[route] as { afterPaintModules?: string[] }).afterPaintModules ?? [];
  const later = everythingOf([...AFTER_LOAD, ...afterPaint]);
  return loaded.filter((file) => !allowed.has(file) && !later.has(file));
}

test('the web app manifest is linked once the first screen has settled, and is served', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
  // Not in index.html (web/src/lib/first-load/webManifest.ts): linked a few seconds after the first screen.
  const link = page.locator('link[rel="manifest"]');
  await expect(link).toHaveCount(1, { timeout: 15_000 });
  const href = await link.getAttribute('href');
  const answer = await page.request.get(href!);
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ name: 'Chronicler', start_url: '/' });
});

test('a first visit asks no GET /api/user, logs no error and loads only the counted /auth JavaScript, compressed', async ({ page }) => {
  const seen = watch(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
  await page.waitForLoadState('load');
  await page.waitForTimeout(500); // anything the first screen fetches late would show up here

  expect(seen.apiCalls).toEqual([]);
  expect(seen.errors).toEqual([]);
  expect(unexpected(seen.scripts, '/auth')).toEqual([]);
  for (const file of expectedJs('/auth')) expect(seen.scripts, file).toContain(file);
  for (const [file, encoding] of seen.encodings) expect(encoding, file).toBe('br');
});

test('signed in, / paints the shell and the dashboard outline first, then loads the rest: only the counted JavaScript before', async ({ page }) => {
  await signUpViaApi(page);
  // When the greeting first enters the page (the shell's outline, before the dashboard's code).
  await page.addInitScript(() => {
    const marks = window as unknown as { greetingAt?: number };
    const observer = new MutationObserver(() => {
      if (marks.greetingAt !== undefined) return;
      if (document.querySelector('h1')?.textContent?.startsWith('Welcome back')) {
        marks.greetingAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  });
  const seen = watch(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  // The real dashboard, from the local database, replaces the outline.
  await expect(page.getByTestId('your-badges')).toBeVisible();
  await expect(page.getByTestId('dashboard-skeleton')).toHaveCount(0);
  await page.waitForLoadState('load');
  await page.waitForTimeout(500);

  expect(seen.apiCalls).toContain('GET /api/user');
  expect(seen.errors).toEqual([]);
  expect(unexpected(seen.scripts, '/')).toEqual([]);
  for (const file of expectedJs('/')) expect(seen.scripts, file).toContain(file);

  // What the dashboard loads after its first paint (the budget file's afterPaintModules, less what
  // the service-worker prompt shares, which follows the load event) was asked for only after the
  // outline was on screen: after the greeting entered the page and after the first contentful
  // paint (the outline's text).
  const timing = await page.evaluate(() => ({
    greetingAt: (window as unknown as { greetingAt?: number }).greetingAt,
    firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    scripts: performance.getEntriesByType('resource').map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
  }));
  expect(timing.greetingAt).toBeDefined();
  expect(timing.firstPaint).toBeDefined();
  const counted = expectedJs('/');
  const afterPaintModules = (budgets['/'] as { afterPaintModules?: string[] }).afterPaintModules ?? [];
  // The after-paint modules' own files, and what they import that neither the first paint nor the
  // service-worker prompt (after the load event, with what it may load) shares.
  const own = new Set(afterPaintModules.map((module) => `/${manifest[module]!.file}`));
  const afterLoad = everythingOf(AFTER_LOAD);
  const theirs = new Set(routeChunks(manifest, afterPaintModules).map((file) => `/${file}`));
  const later = timing.scripts.filter(({ path }) => own.has(path) || (theirs.has(path) && !counted.has(path) && !afterLoad.has(path)));
  expect(later.map(({ path }) => path)).toContain(`/${manifest['src/app/layout/SignedInShell.tsx']!.file}`);
  expect(later.map(({ path }) => path)).toContain(`/${manifest['src/app/routes/DashboardRoute.tsx']!.file}`);
  for (const { path, start } of later) {
    expect(start, `${path} requested before the outline painted`).toBeGreaterThan(timing.greetingAt!);
    expect(start, `${path} requested before the first contentful paint`).toBeGreaterThan(timing.firstPaint!);
  }
});
