/**
 * Accounts screens against the real server and the built PWA (spec 000 §2 Auth page, §4 Session,
 * §5 Validation, §8 error catalogue): register → dashboard greeting → sign out from the sidebar →
 * sign in again; the exact validation messages of /login, /register and the /auth tabs; a wrong
 * password; /auth when already signed in; the spinner label and blocked double submission while a
 * request runs.
 */
import { type Page, type Route, expect, test } from '@playwright/test';
import { PASSWORD, STORAGE_KEYS, signUpViaApi, toast, uniqueUsername } from '../support';

test.use({ viewport: { width: 1280, height: 860 } });

/** The error text Mantine shows under a field (linked through aria-describedby). */
async function fieldError(page: Page, scope: ReturnType<Page['locator']> | Page, label: string | RegExp): Promise<string | null> {
  const input = scope.getByLabel(label, { exact: typeof label === 'string' });
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const el = page.locator(`[id="${id}"]`);
    if ((await el.count()) && ((await el.getAttribute('class')) ?? '').includes('error')) return el.innerText();
  }
  return null;
}

/** Holds every request to `url` until `release()` is called: the network boundary, not the app. */
async function holdRequests(page: Page, url: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  await page.route(url, async (route: Route) => {
    count += 1;
    await gate;
    await route.continue();
  });
  return { release: () => release(), count: () => count };
}

test.describe('accounts', () => {
  test('register through /register, greeted on the dashboard, sign out from the sidebar, sign in through /login', async ({ page }) => {
    const username = uniqueUsername('acc');
    const email = `${username}@example.com`;
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    // No sidebar or mobile menu on the account screens.
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(0);

    await page.getByLabel('Display name').fill('Octavia Estelle Butler');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome back, Octavia' })).toBeVisible();
    // In the page's visible main region: while the loaded shell replaces the first-paint outline
    // (docs/web.md#first-load), React keeps a hidden copy of the outline for a moment.
    await expect(page.getByRole('main').getByText('Your writing journey continues today')).toBeVisible();
    await expect(toast(page, 'Registration successful')).toBeVisible();
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar.getByTestId('sidebar-user-name')).toHaveText('Octavia Estelle Butler');
    await expect(sidebar.getByTestId('sidebar-user-plan')).toHaveText('Apprentice Plan');
    await expect(sidebar.getByText('OB', { exact: true })).toBeVisible();
    // The optional email reached the server with the account.
    const me = await page.request.get('/api/user');
    expect(await me.json()).toMatchObject({ username, displayName: 'Octavia Estelle Butler', email, plan: 'apprentice' });

    // Sign out from the sidebar footer: back to the sign-in page, signed out.
    await sidebar.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
    await expect(toast(page, 'Logged out')).toBeVisible();
    expect((await page.request.get('/api/user')).status()).toBe(401);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.lastUser)).toBeNull();
    // A protected page now sends the author to /auth.
    await page.goto('/series');
    await expect(page).toHaveURL(/\/auth$/);

    // Sign in through /login.
    await page.goto('/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome back, Octavia' })).toBeVisible();
    await expect(toast(page, 'Login successful')).toBeVisible();
  });

  test('/login checks username ≥ 3 and password ≥ 6 as the author types', async ({ page }) => {
    await page.goto('/login');
    const form = page.getByRole('form', { name: 'Login' });
    // Submitting the empty form shows both messages.
    await form.getByRole('button', { name: 'Login' }).click();
    expect(await fieldError(page, form, 'Username')).toBe('Username must be at least 3 characters');
    expect(await fieldError(page, form, 'Password')).toBe('Password must be at least 6 characters');

    await form.getByLabel('Username').fill('ab');
    await expect(form.getByText('Username must be at least 3 characters')).toBeVisible();
    await form.getByLabel('Username').fill('abc');
    await expect(form.getByText('Username must be at least 3 characters')).toHaveCount(0);
    await form.getByLabel('Password', { exact: true }).fill('12345');
    await expect(form.getByText('Password must be at least 6 characters')).toBeVisible();
    await form.getByLabel('Password', { exact: true }).fill('123456');
    await expect(form.getByText('Password must be at least 6 characters')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
  });

  test('/register checks display name ≥ 2 and that the passwords match', async ({ page }) => {
    await page.goto('/register');
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByRole('button', { name: 'Register' }).click();
    expect(await fieldError(page, form, 'Display name')).toBe('Display name must be at least 2 characters');
    expect(await fieldError(page, form, 'Username')).toBe('Username must be at least 3 characters');
    expect(await fieldError(page, form, 'Password')).toBe('Password must be at least 6 characters');

    await form.getByLabel('Display name').fill('O');
    await expect(form.getByText('Display name must be at least 2 characters')).toBeVisible();
    await form.getByLabel('Display name').fill('Oc');
    await expect(form.getByText('Display name must be at least 2 characters')).toHaveCount(0);

    await form.getByLabel('Password', { exact: true }).fill('secret-1');
    await form.getByLabel('Confirm password').fill('secret-2');
    expect(await fieldError(page, form, 'Confirm password')).toBe('Passwords do not match');
    expect(await fieldError(page, form, 'Password')).toBeNull();
    await form.getByLabel('Confirm password').fill('secret-1');
    await expect(form.getByText('Passwords do not match')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  test('/auth tabs only require the fields; the register tab requires a display name', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByText('Your ultimate writing companion')).toBeVisible();
    const login = page.getByRole('tabpanel', { name: 'Login' });
    await login.getByRole('button', { name: 'Login' }).click();
    expect(await fieldError(page, login, 'Username')).toBe('Username is required');
    expect(await fieldError(page, login, 'Password')).toBe('Password is required');
    // Only "required" on this tab: a short username is fine here.
    await login.getByLabel('Username').fill('ab');
    await expect(login.getByText('Username is required')).toHaveCount(0);
    await expect(login.getByText('Username must be at least 3 characters')).toHaveCount(0);
    await expect(login.getByTestId('terms-notice')).toBeVisible();

    await page.getByRole('tab', { name: 'Register' }).click();
    const register = page.getByRole('tabpanel', { name: 'Register' });
    await register.getByRole('button', { name: 'Register' }).click();
    expect(await fieldError(page, register, 'Display name')).toBe('Display name is required');
    await register.getByLabel('Display name').fill('O');
    await expect(register.getByText('Display name is required')).toHaveCount(0);
    await expect(register.getByTestId('terms-notice')).toBeVisible();
  });

  test('/auth register and login tabs sign the author in', async ({ page }) => {
    const username = uniqueUsername('tab');
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    const register = page.getByRole('tabpanel', { name: 'Register' });
    await register.getByLabel('Display name').fill('Nnedi Okorafor');
    await register.getByLabel('Username').fill(username);
    await register.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await register.getByLabel('Confirm password').fill(PASSWORD);
    await register.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back, Nnedi' })).toBeVisible();

    await page.request.post('/api/logout');
    await page.goto('/auth');
    const login = page.getByRole('tabpanel', { name: 'Login' });
    await login.getByLabel('Username').fill(username);
    await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await login.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome back, Nnedi' })).toBeVisible();
  });

  test('a wrong password: the server message in the red box and the "Login failed" toast', async ({ page }) => {
    const author = await signUpViaApi(page.context().request, { displayName: 'Ursula' });
    await page.context().clearCookies();
    await page.goto('/login');
    await page.getByLabel('Username').fill(author.username);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByTestId('form-error')).toHaveText('Invalid credentials');
    await expect(page.getByTestId('form-error')).toBeVisible();
    const failed = toast(page, 'Login failed');
    await expect(failed).toBeVisible();
    await expect(failed).toContainText('Invalid credentials');
    await expect(failed).toHaveAttribute('data-variant', 'destructive');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  test('/auth sends a signed-in author to the dashboard', async ({ page }) => {
    await signUpViaApi(page, { displayName: 'Le Guin' });
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome back, Le' })).toBeVisible();
  });

  test('while a login runs the button says "Logging in", spins, is disabled and a second submit sends nothing', async ({ page }) => {
    const author = await signUpViaApi(page.context().request);
    await page.context().clearCookies();
    await page.goto('/login');
    const held = await holdRequests(page, '**/api/login');
    await page.getByLabel('Username').fill(author.username);
    await page.getByLabel('Password', { exact: true }).fill(author.password);
    await page.getByRole('button', { name: 'Login' }).click();

    const pending = page.getByRole('button', { name: 'Logging in' });
    await expect(pending).toBeDisabled();
    await expect(pending.getByTestId('submit-spinner')).toBeVisible();
    // Enter in the password field would submit again: it must not.
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await expect(pending).toBeDisabled();
    expect(held.count()).toBe(1);

    held.release();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome back, Ursula' })).toBeVisible();
    expect(held.count()).toBe(1);
  });

  test('while a registration runs the button says "Creating account", spins and is disabled', async ({ page }) => {
    await page.goto('/register');
    const held = await holdRequests(page, '**/api/register');
    await page.getByLabel('Display name').fill('Ann Leckie');
    await page.getByLabel('Username').fill(uniqueUsername('slow'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();

    const pending = page.getByRole('button', { name: 'Creating account' });
    await expect(pending).toBeDisabled();
    await expect(pending.getByTestId('submit-spinner')).toBeVisible();
    await page.getByLabel('Confirm password').press('Enter');
    await expect(pending).toBeDisabled();
    expect(held.count()).toBe(1);

    held.release();
    await expect(page.getByRole('heading', { name: 'Welcome back, Ann' })).toBeVisible();
    expect(held.count()).toBe(1);
  });
});
