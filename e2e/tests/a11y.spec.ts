/**
 * Accessibility of the shell screens in every theme (house rule "axe-clean"): an axe scan
 * of /auth (both tabs, with validation errors), /login (with field errors, the red box and the
 * destructive toast), /register (with errors), the dashboard with the desktop sidebar (expanded,
 * collapsed, theme picker and sync panel open), the 404 page, /subscriptions, /products and the
 * mobile top bar and drawer — in light, dark, spooky and sunset. No serious or critical findings.
 * The /auth hero's text on the brand gradient, which axe cannot measure, is measured against the
 * pixels drawn behind it (WCAG AA).
 *
 * Motion is reduced so that no scan lands in the middle of a fade (a half-transparent element
 * would be measured at a contrast it never rests at); the end states are the same.
 */
import { type Browser, type BrowserContext, type Page, expect, test } from '@playwright/test';
import {
  type SharedAuthor,
  THEMES,
  type Theme,
  createSharedAuthor,
  currentTheme,
  seriousA11yViolations,
  startInTheme,
  textContrastOverBackground,
  toast,
  uniqueUsername,
  useSharedAuthor,
} from '../support';

const DESKTOP = { width: 1280, height: 860 };
const MOBILE = { width: 390, height: 844 };

let shared: SharedAuthor;
test.beforeAll(async ({ playwright }, testInfo) => {
  shared = await createSharedAuthor(playwright, testInfo, { displayName: 'Ada Palmer' });
  // A series, so the Current Series card shows its title, "Book X of Y" and the progress bar.
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL, storageState: { cookies: shared.cookies, origins: [] } });
  const res = await api.post('/api/series', {
    data: { title: 'Terra Ignota', description: 'Four books', totalBooks: 4, currentBook: 2, coverImage: null },
  });
  expect(res.status()).toBe(201);
  await api.dispose();
});

test.use({ reducedMotion: 'reduce' });
// Each axe pass over a full page takes a few seconds on a busy 2-core machine.
test.describe.configure({ timeout: 120_000 });

/** Collects the findings of every scan of one theme, so a run reports them all at once. */
class Scanner {
  readonly problems: string[] = [];
  constructor(
    private readonly page: Page,
    private readonly theme: Theme,
  ) {}

  async scan(screen: string, options: { include?: string } = {}): Promise<void> {
    expect(await currentTheme(this.page), `${screen} is in the ${this.theme} theme`).toBe(this.theme);
    for (const problem of await seriousA11yViolations(this.page, options)) this.problems.push(`[${this.theme}] ${screen}: ${problem}`);
  }
}

async function newThemedContext(browser: Browser, theme: Theme, viewport = DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  await startInTheme(context, theme);
  return context;
}

for (const theme of THEMES) {
  test.describe(`${theme} theme`, () => {
    test(`/auth, both tabs (${theme})`, async ({ browser }) => {
      const context = await newThemedContext(browser, theme);
      const page = await context.newPage();
      const axe = new Scanner(page, theme);

      // /auth, login tab with its validation messages (the same elements as the empty form, plus
      // the error texts and borders).
      await page.goto('/auth');
      const loginTab = page.getByRole('tabpanel', { name: 'Login' });
      await expect(loginTab.getByRole('button', { name: 'Login' })).toBeVisible();
      // The hero's text sits on the brand gradient under decorative glows (pseudo-elements), which
      // axe reports as "incomplete" rather than checking: measure it against the drawn pixels.
      for (const run of await textContrastOverBackground(page, 'section[aria-labelledby="auth-hero-title"]')) {
        if (run.ratio < run.required) axe.problems.push(`[${theme}] /auth hero: "${run.text}" contrast ${run.ratio} < ${run.required}`);
      }
      await loginTab.getByRole('button', { name: 'Login' }).click();
      await expect(loginTab.getByText('Password is required')).toBeVisible();
      await axe.scan('/auth login tab with errors');

      // /auth, register tab.
      await page.getByRole('tab', { name: 'Register' }).click();
      const registerTab = page.getByRole('tabpanel', { name: 'Register' });
      await registerTab.getByRole('button', { name: 'Register' }).click();
      await expect(registerTab.getByText('Display name is required')).toBeVisible();
      await axe.scan('/auth register tab with errors');

      expect(axe.problems, axe.problems.join('\n')).toEqual([]);
      await context.close();
    });

    test(`/login, /register and the 404 page (${theme})`, async ({ browser }) => {
      const context = await newThemedContext(browser, theme);
      const page = await context.newPage();
      const axe = new Scanner(page, theme);

      // /login after a refused sign-in (red box + destructive toast), then a field error as well.
      await page.goto('/login');
      await page.getByLabel('Username').fill(uniqueUsername('nobody'));
      await page.getByLabel('Password', { exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page.getByTestId('form-error')).toHaveText('Invalid credentials');
      await expect(toast(page, 'Login failed')).toBeVisible();
      await page.getByLabel('Password', { exact: true }).fill('wrong');
      await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
      await axe.scan('/login with the red box, the toast and a field error');

      // /register with its messages.
      await page.goto('/register');
      await page.getByLabel('Password', { exact: true }).fill('secret-1');
      await page.getByLabel('Confirm password').fill('secret-2');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByText('Passwords do not match')).toBeVisible();
      await expect(page.getByText('Display name must be at least 2 characters')).toBeVisible();
      await axe.scan('/register with errors');

      // The 404 page.
      await page.goto('/no/such/page');
      await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
      await axe.scan('404 page');

      expect(axe.problems, axe.problems.join('\n')).toEqual([]);
      await context.close();
    });

    test(`the dashboard with the sidebar: expanded, collapsed, theme menu and sync panel open (${theme})`, async ({ browser }) => {
      const context = await newThemedContext(browser, theme);
      await useSharedAuthor(context, shared);
      const page = await context.newPage();
      const axe = new Scanner(page, theme);
      const aside = page.getByRole('complementary', { name: 'Sidebar' });

      // Dashboard with the expanded sidebar and the Current Series card.
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Welcome back, Ada' })).toBeVisible();
      await expect(aside.getByTestId('current-series')).toContainText('Terra Ignota');
      await expect(aside.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true');

      // The theme picker's menu, then the sync status panel, open (the panel opens beside the
      // sidebar, so that scan covers the whole expanded sidebar and the dashboard as well).
      await aside.getByRole('button', { name: /^Choose theme/ }).click();
      await expect(page.getByRole('menuitem', { name: 'Sunset' })).toBeVisible();
      await axe.scan('theme picker menu');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toBeHidden();
      await aside.getByTestId('sync-indicator').click();
      await expect(page.getByText('All changes synced')).toBeVisible();
      await axe.scan('dashboard, expanded sidebar and the sync status panel');
      await page.keyboard.press('Escape');
      await expect(page.getByText('All changes synced')).toBeHidden();

      // Collapsed sidebar (icons only).
      await aside.getByRole('button', { name: 'Collapse sidebar' }).click();
      await expect(aside.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
      await axe.scan('dashboard with the collapsed sidebar');
      await aside.getByRole('button', { name: 'Expand sidebar' }).click();

      expect(axe.problems, axe.problems.join('\n')).toEqual([]);
      await context.close();
    });

    test(`/subscriptions, /products, the mobile top bar and drawer (${theme})`, async ({ browser }) => {
      const context = await newThemedContext(browser, theme);
      await useSharedAuthor(context, shared);
      const page = await context.newPage();
      const axe = new Scanner(page, theme);

      for (const [path, heading] of [
        ['/subscriptions', 'Subscription Plans'],
        ['/products', 'Premium Products'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
        await axe.scan(path);
      }

      // Mobile: the top bar, then the open drawer.
      await page.setViewportSize(MOBILE);
      await page.goto('/');
      const topBar = page.getByRole('region', { name: 'Top bar' });
      await expect(topBar).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Welcome back, Ada' })).toBeVisible();
      await axe.scan('mobile top bar');
      await topBar.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.getByRole('dialog');
      await expect(drawer.getByRole('button', { name: 'Sign Out' })).toBeVisible();
      await expect(drawer.getByTestId('current-series')).toContainText('Terra Ignota');
      await axe.scan('mobile drawer');

      expect(axe.problems, axe.problems.join('\n')).toEqual([]);
      await context.close();
    });
  });
}
