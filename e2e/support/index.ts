/**
 * Shared helpers for every e2e spec: new authors (through the API or the UI), the operator CLI
 * against the suite's database, themes, the service worker, axe, toasts and keyboard drags.
 *
 *   import { signUpViaApi, signUpViaUi, setPlan, seriousA11yViolations } from '../support';
 *
 * Requests made with `page.request` / `context.request` share the browser context's cookies, so
 * an author signed up through the API is signed in for the pages of that context too.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { AxeBuilder } from '@axe-core/playwright';
import {
  type APIRequestContext,
  type BrowserContext,
  type Cookie,
  type Locator,
  type Page,
  type PlaywrightWorkerArgs,
  type TestInfo,
  expect,
} from '@playwright/test';

const run = promisify(execFile);

export const PASSWORD = 'lanterns-2026';

/** The four themes, in the toggle's cycle order (spec 000 §2). */
export const THEMES = ['light', 'dark', 'spooky', 'sunset'] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_LABELS: Record<Theme, string> = { light: 'Light', dark: 'Dark', spooky: 'Spooky', sunset: 'Sunset' };
/** localStorage keys of the web app (web/src/features/theme/themes.ts, features/layout, lib/session). */
export const STORAGE_KEYS = { theme: 'chronicler:theme', sidebarCollapsed: 'sidebar-collapsed', lastUser: 'chronicler:last-user' } as const;

export const PLANS = ['apprentice', 'wordsmith', 'loremaster', 'legendary'] as const;
export type Plan = (typeof PLANS)[number];

export interface Author {
  id: string;
  username: string;
  password: string;
  displayName: string;
  email: string | null;
  plan: Plan;
}

let counter = 0;

/** A username no other test (or earlier run on the same database) has taken: 3–32 chars, [a-z0-9]. */
export function uniqueUsername(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`.slice(0, 30);
}

type RequestOwner = Page | BrowserContext | APIRequestContext;

function requestOf(owner: RequestOwner): APIRequestContext {
  return 'request' in owner ? owner.request : owner;
}

export interface SignUpOptions {
  username?: string;
  displayName?: string;
  email?: string;
  password?: string;
}

/**
 * Registers a new author through POST /api/register; the cookie lands in the page's context, so
 * its pages are signed in from the next navigation on.
 */
export async function signUpViaApi(owner: RequestOwner, options: SignUpOptions = {}): Promise<Author> {
  const body = {
    username: options.username ?? uniqueUsername(),
    password: options.password ?? PASSWORD,
    displayName: options.displayName ?? 'Ursula Writer',
    ...(options.email ? { email: options.email } : {}),
  };
  const res = await requestOf(owner).post('/api/register', { data: body });
  expect(res.status(), `POST /api/register → ${res.status()} ${await res.text()}`).toBe(201);
  const user = (await res.json()) as Omit<Author, 'password'>;
  return { ...user, password: body.password };
}

/** Signs an existing author in through POST /api/login (cookie in the page's context). */
export async function signInViaApi(owner: RequestOwner, author: Pick<Author, 'username' | 'password'>): Promise<void> {
  const res = await requestOf(owner).post('/api/login', { data: { username: author.username, password: author.password } });
  expect(res.status(), `POST /api/login → ${res.status()} ${await res.text()}`).toBe(200);
}

/** An author made once per file (in `beforeAll`) whose session cookie each test reuses. */
export interface SharedAuthor {
  author: Author;
  cookies: Cookie[];
}

/**
 * Signs up one author for a whole spec file, outside any page:
 *
 *   let shared: SharedAuthor;
 *   test.beforeAll(async ({ playwright }, testInfo) => { shared = await createSharedAuthor(playwright, testInfo); });
 *   test('…', async ({ page }) => { await useSharedAuthor(page, shared); await page.goto('/'); … });
 *
 * Do not sign a shared author out (POST /api/logout ends the session for every test that uses it).
 */
export async function createSharedAuthor(
  playwright: PlaywrightWorkerArgs['playwright'],
  testInfo: TestInfo,
  options: SignUpOptions = {},
): Promise<SharedAuthor> {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    const author = await signUpViaApi(api, options);
    return { author, cookies: (await api.storageState()).cookies };
  } finally {
    await api.dispose();
  }
}

/** Signs the page's context in as the shared author (adds the session cookie). */
export async function useSharedAuthor(owner: Page | BrowserContext, shared: SharedAuthor): Promise<Author> {
  const context = 'context' in owner ? owner.context() : owner;
  await context.addCookies(shared.cookies);
  return shared.author;
}

/**
 * Registers through the /register form as an author would and waits for the dashboard greeting.
 * Leaves the page on "/".
 */
export async function signUpViaUi(page: Page, options: SignUpOptions = {}): Promise<Author> {
  const username = options.username ?? uniqueUsername();
  const displayName = options.displayName ?? 'Ursula Writer';
  const password = options.password ?? PASSWORD;
  await page.goto('/register');
  await page.getByLabel('Display name').fill(displayName);
  await page.getByLabel('Username').fill(username);
  if (options.email) await page.getByLabel(/^Email/).fill(options.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  const first = displayName.trim().split(/\s+/)[0] || 'Author';
  await expect(page.getByRole('heading', { name: `Welcome back, ${first}` })).toBeVisible({ timeout: 20_000 });
  const me = await page.request.get('/api/user');
  expect(me.status()).toBe(200);
  return { ...((await me.json()) as Omit<Author, 'password'>), password };
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Runs the operator CLI (`pnpm cli …`) against the suite's database (E2E_DATA_DIR, shared with the
 * server the config starts; SQLite WAL lets both write).
 */
export async function operatorCli(...args: string[]): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return runCli({ DATA_DIR: dataDir }, args);
}

/** The operator CLI against a PostgreSQL database (`DATABASE_URL`), as an operator of several instances runs it. */
export async function operatorCliOnDatabase(databaseUrl: string, ...args: string[]): Promise<string> {
  return runCli({ DATABASE_URL: databaseUrl }, args);
}

async function runCli(storage: Record<string, string>, args: string[]): Promise<string> {
  const { stdout } = await run('pnpm', ['--silent', '--filter', '@chronicler/sync-server', 'cli', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...storage, LOG_LEVEL: 'warn' },
    timeout: 60_000,
  });
  return stdout;
}

/**
 * Sets an author's plan with the operator CLI (`pnpm cli user:plan`).
 *
 * The server keeps resolved sessions in memory for up to 10 s (sync-server/src/auth/session.ts,
 * SESSION_CACHE_TTL_MS), so a session that was already in use may report the old plan in
 * GET /api/user for that long. Pass `waitFor` (the page or context signed in as this author) to
 * wait until its session reports the new plan; reload the page after that to see it.
 */
export async function setPlan(username: string, plan: Plan, waitFor?: RequestOwner): Promise<void> {
  const out = await operatorCli('user:plan', '--username', username, '--plan', plan);
  expect(out).toContain(`now on the ${plan} plan`);
  if (waitFor) {
    const request = requestOf(waitFor);
    await expect
      .poll(async () => ((await (await request.get('/api/user')).json()) as { plan?: string }).plan, {
        timeout: 30_000,
        intervals: [250, 500, 1000],
        message: `GET /api/user reports the ${plan} plan`,
      })
      .toBe(plan);
  }
}

// ---- themes -------------------------------------------------------------------------------------

/** Makes every page of `context` open in `theme` (as if the author had chosen it earlier). */
export async function startInTheme(context: BrowserContext, theme: Theme): Promise<void> {
  await context.addInitScript(
    ([key, value]) => {
      try {
        window.localStorage.setItem(key, value);
      } catch {
        /* about:blank has no storage */
      }
    },
    [STORAGE_KEYS.theme, theme] as const,
  );
}

/** The theme the page shows (html[data-theme], set by the theme provider). */
export function currentTheme(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.documentElement.dataset.theme);
}

// ---- service worker -----------------------------------------------------------------------------

/**
 * Waits until the service worker is active AND controls this page. The first visit registers it;
 * `clientsClaim` is off (update prompt), so a reload is what puts the page under its control.
 */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.reload();
  }
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), { timeout: 30_000 }).toBe('activated');
}

// ---- accessibility ------------------------------------------------------------------------------

export interface AxeOptions {
  /** Only scan inside this selector (default: the whole page). */
  include?: string;
  /** Leave these out — say why at the call site. */
  exclude?: string[];
}

/**
 * Serious and critical axe violations on the page once its animations have finished (a dialog
 * fading in is measured at its final colours: mid-fade, its text failed colour-contrast now and
 * then), one line each with the nodes.
 */
export async function seriousA11yViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  // Finite ones only: a loader's shimmer runs for ever.
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { timeout: 5_000 },
  );
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n'),
    );
}

// ---- toasts -------------------------------------------------------------------------------------

/** The toast on screen with this title (spec 000 §9: one at a time). */
export function toast(page: Page, title: string) {
  return page.locator('[data-toast-region] [data-toast-id]').filter({ hasText: title });
}

// ---- drag and drop by keyboard ------------------------------------------------------------------

/**
 * Moves a sortable item as an author without a mouse does (@hello-pangea/dnd's keyboard dragging):
 * focus its handle, Space to lift it, the arrow key `steps` times, Space to drop it. Each key waits
 * for the move before it to settle.
 */
export async function keyboardDrag(handle: Locator, { direction, steps }: { direction: 'up' | 'down'; steps: number }): Promise<void> {
  const page = handle.page();
  await handle.focus();
  await page.keyboard.press('Space');
  for (let step = 0; step < steps; step++) {
    await page.waitForTimeout(150);
    await page.keyboard.press(direction === 'up' ? 'ArrowUp' : 'ArrowDown');
  }
  await page.waitForTimeout(150);
  await page.keyboard.press('Space');
}

// ---- contrast where axe cannot tell -------------------------------------------------------------

export interface TextContrast {
  text: string;
  /** Lowest contrast between the text colour and any pixel behind the text. */
  ratio: number;
  /** 3 for large text (≥ 24 px, or ≥ 18.66 px bold), else 4.5 (WCAG 1.4.3 AA). */
  required: number;
}

/**
 * Measures the contrast of every text run inside `rootSelector` against the pixels actually drawn
 * behind it. For text over gradients, images or decorative pseudo-elements, which axe reports as
 * "incomplete" instead of checking: the text is made transparent, the page is screenshotted, and
 * the worst background pixel inside each line box is compared with the text colour.
 */
export async function textContrastOverBackground(page: Page, rootSelector: string): Promise<TextContrast[]> {
  const runs = await page.evaluate((selector) => {
    const root = document.querySelector(selector);
    if (!root) throw new Error(`No element matches ${selector}`);
    const out: { text: string; color: string; large: boolean; rects: { x: number; y: number; w: number; h: number }[] }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent) continue;
      const style = getComputedStyle(parent);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = Array.from(range.getClientRects())
        .filter((r) => r.width > 0 && r.height > 0)
        .map((r) => ({ x: Math.floor(r.x), y: Math.floor(r.y), w: Math.ceil(r.width), h: Math.ceil(r.height) }));
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      out.push({ text, color: style.color, large: size >= 24 || (size >= 18.66 && bold), rects });
    }
    const hide = document.createElement('style');
    hide.id = 'e2e-hide-text';
    hide.textContent = `${selector}, ${selector} * { color: transparent !important; text-shadow: none !important; caret-color: transparent !important; }`;
    document.head.appendChild(hide);
    return out;
  }, rootSelector);
  try {
    const png = (await page.screenshot({ type: 'png', animations: 'disabled' })).toString('base64');
    return await page.evaluate(
      async ({ png, runs }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${png}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
        ctx.drawImage(img, 0, 0);
        const scale = img.naturalWidth / window.innerWidth;
        const channel = (v: number) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        const luminance = (r: number, g: number, b: number) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
        const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        return runs.map(({ text, color, large, rects }) => {
          const [r, g, b] = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).map(Number) as [number, number, number];
          const fg = luminance(r, g, b);
          let worst = Infinity;
          for (const rect of rects) {
            const x = Math.max(0, Math.round(rect.x * scale));
            const y = Math.max(0, Math.round(rect.y * scale));
            const w = Math.min(canvas.width - x, Math.round(rect.w * scale));
            const h = Math.min(canvas.height - y, Math.round(rect.h * scale));
            if (w <= 0 || h <= 0) continue;
            const data = ctx.getImageData(x, y, w, h).data;
            for (let i = 0; i < data.length; i += 4) worst = Math.min(worst, ratio(fg, luminance(data[i]!, data[i + 1]!, data[i + 2]!)));
          }
          return { text: text.slice(0, 60), ratio: Math.round(worst * 100) / 100, required: large ? 3 : 4.5 };
        });
      },
      { png, runs },
    );
  } finally {
    await page.evaluate(() => document.getElementById('e2e-hide-text')?.remove());
  }
}

/** The API, as the browser reaches it: what `goOffline` cuts. */
const API_ROUTES = '**/api/**';

/**
 * Takes a context offline as a train tunnel would. `setOffline` alone is Chromium's network
 * emulation, applied to each page's target: a document that a navigation or a reload opens in a
 * new renderer could send its first requests before the emulation reached it, and a save then
 * arrived at the server "while offline". Aborting every API request at the context as well makes
 * the cut whole; `navigator.onLine` and the `offline` event still come from the emulation.
 */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.route(API_ROUTES, (route) => route.abort('internetdisconnected'));
  await context.setOffline(true);
}

/** Ends `goOffline`: requests reach the server again, then the browser says it is online. */
export async function goOnline(context: BrowserContext): Promise<void> {
  await context.unroute(API_ROUTES);
  await context.setOffline(false);
}
