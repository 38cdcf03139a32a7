import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LAST_USER_KEY } from '@/lib/session';
import { TEST_USER, deferred, stubFetch } from '@/test/fetch-stub';
import { renderApp } from '@/test/render';

const anonymous = { 'GET /api/user': { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } } };

/** The error text Mantine shows under an input (linked with aria-describedby). */
function fieldError(label: RegExp | string): string | null {
  const input = screen.getByLabelText(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const el = document.getElementById(id);
    if (el && el.className.includes('error')) return el.textContent;
  }
  return null;
}

describe('/login', () => {
  it('checks username ≥ 3 and password ≥ 6 as the author types', async () => {
    stubFetch(anonymous);
    const user = userEvent.setup();
    renderApp('/login');
    const username = await screen.findByLabelText('Username');
    await user.type(username, 'ab');
    expect(fieldError('Username')).toBe('Username must be at least 3 characters');
    await user.type(username, 'c');
    expect(fieldError('Username')).toBeNull();
    await user.type(screen.getByLabelText('Password'), '12345');
    expect(fieldError('Password')).toBe('Password must be at least 6 characters');
    await user.type(screen.getByLabelText('Password'), '6');
    expect(fieldError('Password')).toBeNull();
  });

  it('shows both messages on an empty submit and sends nothing', async () => {
    const { calls } = stubFetch(anonymous);
    const user = userEvent.setup();
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    expect(fieldError('Username')).toBe('Username must be at least 3 characters');
    expect(fieldError('Password')).toBe('Password must be at least 6 characters');
    expect(calls.filter((c) => c.path === '/api/login')).toHaveLength(0);
  });

  it('shows the success note after registration', async () => {
    stubFetch(anonymous);
    renderApp('/login?registered=true');
    expect(await screen.findByTestId('registered-note')).toBeTruthy();
  });

  it('links to /register', async () => {
    stubFetch(anonymous);
    renderApp('/login');
    expect((await screen.findByRole('link', { name: 'Create an account' })).getAttribute('href')).toBe('/register');
  });

  it('shows the server message in the red box, spins "Logging in" and blocks a second submit', async () => {
    const answer = deferred<{ status: number; body?: unknown }>();
    const { calls } = stubFetch({ ...anonymous, 'POST /api/login': () => answer.promise });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'ursula');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    const pending = await screen.findByRole('button', { name: 'Logging in' });
    expect(pending.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('submit-spinner')).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(calls.filter((c) => c.path === '/api/login')).toHaveLength(1);
    expect(calls[1]?.body).toEqual({ username: 'ursula', password: 'wrong-password' });
    expect(calls[1]?.init?.credentials).toBe('include');

    answer.resolve({ status: 401, body: { message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' } });
    const box = await screen.findByTestId('form-error');
    expect(box.textContent).toBe('Invalid credentials');
    expect(await screen.findByText('Login failed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Login' }).hasAttribute('disabled')).toBe(false);
  });

  it('falls back to "Login failed" without a server message and "An unexpected error occurred" offline', async () => {
    let mode: 'empty' | 'offline' = 'empty';
    stubFetch({
      ...anonymous,
      'POST /api/login': async () => (mode === 'empty' ? { status: 500 } : 'network-error'),
    });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'ursula');
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe('Login failed');
    mode = 'offline';
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByTestId('form-error').textContent).toBe('An unexpected error occurred'));
  });

  it('signs in, remembers the user, toasts and opens the dashboard', async () => {
    stubFetch({ ...anonymous, 'POST /api/login': { status: 200, body: TEST_USER } });
    const user = userEvent.setup();
    const { router } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'ursula');
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Login successful')).toBeTruthy();
    expect(screen.getByText('Welcome back')).toBeTruthy();
    expect(window.localStorage.getItem(LAST_USER_KEY)).toContain('ursula');
  });
});

describe('/register', () => {
  it('shows "Passwords do not match" on the confirm field', async () => {
    stubFetch(anonymous);
    const user = userEvent.setup();
    renderApp('/register');
    await user.type(await screen.findByLabelText('Password'), 'secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret-2');
    expect(fieldError('Confirm password')).toBe('Passwords do not match');
    expect(fieldError('Password')).toBeNull();
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'secret-1');
    expect(fieldError('Confirm password')).toBeNull();
    // Changing the password re-checks the confirmation.
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(fieldError('Confirm password')).toBe('Passwords do not match');
  });

  it('checks display name ≥ 2, username ≥ 3, password ≥ 6 and an optional email', async () => {
    const { calls } = stubFetch(anonymous);
    const user = userEvent.setup();
    renderApp('/register');
    await user.click(await screen.findByRole('button', { name: 'Register' }));
    expect(fieldError('Display name')).toBe('Display name must be at least 2 characters');
    expect(fieldError('Username')).toBe('Username must be at least 3 characters');
    expect(fieldError('Password')).toBe('Password must be at least 6 characters');
    expect(fieldError(/^Email/)).toBeNull();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    expect(fieldError(/^Email/)).toBe('Please enter a valid email address');
    expect(calls.filter((c) => c.path === '/api/register')).toHaveLength(0);
  });

  it('creates the account with "Creating account", then opens the dashboard', async () => {
    const answer = deferred<{ status: number; body?: unknown }>();
    const { calls } = stubFetch({ ...anonymous, 'POST /api/register': () => answer.promise });
    const user = userEvent.setup();
    const { router } = renderApp('/register');
    await user.type(await screen.findByLabelText('Display name'), 'Ursula Le Guin');
    await user.type(screen.getByLabelText('Username'), 'ursula');
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByRole('button', { name: 'Creating account' })).hasAttribute('disabled')).toBe(true);
    expect(calls.find((c) => c.path === '/api/register')?.body).toEqual({
      username: 'ursula',
      password: 'secret-1',
      displayName: 'Ursula Le Guin',
    });
    answer.resolve({ status: 201, body: TEST_USER });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Registration successful')).toBeTruthy();
  });

  it('shows the server message inline when the username is taken', async () => {
    stubFetch({
      ...anonymous,
      'POST /api/register': { status: 409, body: { message: 'Username already exists', code: 'USERNAME_TAKEN' } },
    });
    const user = userEvent.setup();
    renderApp('/register');
    await user.type(await screen.findByLabelText('Display name'), 'Ursula');
    await user.type(screen.getByLabelText('Username'), 'ursula');
    await user.type(screen.getByLabelText(/^Email/), 'ursula@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe('Username already exists');
    expect(await screen.findByText('Registration failed')).toBeTruthy();
  });

  it('links to /login', async () => {
    stubFetch(anonymous);
    renderApp('/register');
    expect((await screen.findByRole('link', { name: 'Log in' })).getAttribute('href')).toBe('/login');
  });
});

describe('/auth', () => {
  it('login tab only requires both fields', async () => {
    stubFetch(anonymous);
    const user = userEvent.setup();
    renderApp('/auth');
    const panel = await screen.findByRole('tabpanel', { name: 'Login' });
    await user.click(within(panel).getByRole('button', { name: 'Login' }));
    expect(within(panel).getByText('Username is required')).toBeTruthy();
    expect(within(panel).getByText('Password is required')).toBeTruthy();
    await user.type(within(panel).getByLabelText('Username'), 'ab');
    expect(within(panel).queryByText('Username is required')).toBeNull();
    expect(within(panel).queryByText('Username must be at least 3 characters')).toBeNull();
  });

  it('register tab requires a display name', async () => {
    stubFetch(anonymous);
    const user = userEvent.setup();
    renderApp('/auth');
    await user.click(await screen.findByRole('tab', { name: 'Register' }));
    const panel = screen.getByRole('tabpanel', { name: 'Register' });
    // The register form loads with its tab (not part of the first paint).
    await user.click(await within(panel).findByRole('button', { name: 'Register' }));
    expect(within(panel).getByText('Display name is required')).toBeTruthy();
    expect(within(panel).getByText('Username must be at least 3 characters')).toBeTruthy();
  });

  it('has a theme toggle, a terms notice under each form and the tagline', async () => {
    stubFetch(anonymous);
    renderApp('/auth');
    expect(await screen.findByRole('button', { name: /^Theme: Light/ })).toBeTruthy();
    expect(screen.getAllByTestId('terms-notice').length).toBeGreaterThanOrEqual(1);
    expect(screen.getByText('Your ultimate writing companion')).toBeTruthy();
  });
});
