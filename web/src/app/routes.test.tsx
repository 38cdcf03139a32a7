import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { LAST_USER_KEY } from '@/lib/session';
import { TEST_USER, deferred, stubFetch } from '@/test/fetch-stub';
import { renderApp } from '@/test/render';

const signedIn = () => stubFetch({ 'GET /api/user': { status: 200, body: TEST_USER } });

describe('route table', () => {
  it('shows the not-found page for unknown paths', async () => {
    stubFetch({ 'GET /api/user': { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } } });
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByText(/Did you forget to add the page to the router\?/)).toBeTruthy();
  });

  it('redirects /subscription to /subscriptions, keeping the query', async () => {
    signedIn();
    const { router } = renderApp('/subscription?plan=wordsmith');
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscriptions'));
    expect(router.state.location.search).toBe('?plan=wordsmith');
    expect(await screen.findByRole('heading', { name: 'Subscription Plans', level: 1 }, { timeout: 15_000 })).toBeTruthy();
  });

  it.each([
    '/',
    '/series',
    '/series/abc',
    '/series/abc/books/new',
    '/characters',
    '/world',
    '/timeline',
    '/collaboration',
    '/achievements',
    '/ai-companion',
    '/writers-companion',
    '/products',
    '/checkout?productId=writers-toolkit&amount=9.99',
    '/subscriptions',
    '/chapter-editor?bookId=b1',
  ])('renders %s inside the shell with a page heading', async (path) => {
    signedIn();
    const { router } = renderApp(path);
    // The shell paints its outline first, then the loaded shell and screen replace it.
    await waitFor(
      () => {
        expect(screen.getByTestId('app-shell').getAttribute('aria-busy')).toBeNull();
        expect(screen.getByTestId('main-content').querySelector('h1')).not.toBeNull();
      },
      // The local database, the sync engine and the screen load after the shell's outline.
      { timeout: 15_000 },
    );
    expect(screen.queryByRole('heading', { name: '404 Page Not Found' })).toBeNull();
    expect(router.state.location.pathname).toBe(path.split('?')[0]);
  });

  it("/writers-companion shows the companion, not an empty page", async () => {
    signedIn();
    renderApp('/writers-companion');
    expect(await screen.findByRole('heading', { name: "Writer's Companion", level: 1 })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Refresh Suggestions' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Analysis' })).toBeTruthy();
  });
});

describe('chapter-editor entry rule', () => {
  it('shows the editor when bookId is present', async () => {
    signedIn();
    const { router } = renderApp('/chapter-editor?bookId=b1&seriesId=s1&id=c1');
    expect(await screen.findByRole('heading', { name: 'Chapter Editor', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/chapter-editor');
  });

  it('goes to /series?id={seriesId} with only seriesId', async () => {
    signedIn();
    const { router } = renderApp('/chapter-editor?seriesId=s-42');
    await waitFor(() => expect(router.state.location.pathname).toBe('/series'));
    expect(router.state.location.search).toBe('?id=s-42');
  });

  it('goes to / with neither', async () => {
    signedIn();
    const { router } = renderApp('/chapter-editor');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 15_000 });
    expect(await screen.findByRole('heading', { name: /Welcome back/, level: 1 }, { timeout: 15_000 })).toBeTruthy();
  });
});

describe('checkout entry', () => {
  it('without productId and amount shows "Missing product information" and goes to /', async () => {
    signedIn();
    const { router } = renderApp('/checkout?productId=writers-toolkit');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Missing product information')).toBeTruthy();
    expect(screen.getByText('Product ID and amount are required to proceed with checkout.')).toBeTruthy();
  });
});

describe('protected wrapper', () => {
  it('shows a spinner while the user loads, then sends a 401 to /auth', async () => {
    const answer = deferred<{ status: number; body?: unknown }>();
    stubFetch({ 'GET /api/user': () => answer.promise });
    const { router } = renderApp('/characters');
    expect(screen.getByTestId('page-spinner')).toBeTruthy();
    answer.resolve({ status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeTruthy();
  });

  it('a 401 forgets the remembered user', async () => {
    window.localStorage.setItem(LAST_USER_KEY, JSON.stringify(TEST_USER));
    stubFetch({ 'GET /api/user': { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } } });
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem(LAST_USER_KEY)).toBeNull();
  });

  it('remembers the signed-in user for the next offline start', async () => {
    signedIn();
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ursula', level: 1 })).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(LAST_USER_KEY) ?? 'null')).toMatchObject({ username: 'ursula' });
  });

  it('offline with a remembered user goes straight in', async () => {
    window.localStorage.setItem(LAST_USER_KEY, JSON.stringify(TEST_USER));
    stubFetch({ 'GET /api/user': 'network-error' });
    const { router } = renderApp('/timeline');
    expect(await screen.findByRole('heading', { name: 'Timeline', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/timeline');
    expect(screen.getByTestId('sidebar-user-name').textContent).toBe('Ursula Le Guin');
    expect(window.localStorage.getItem(LAST_USER_KEY)).not.toBeNull();
  });

  it('offline with nobody remembered goes to /auth', async () => {
    stubFetch({ 'GET /api/user': 'network-error' });
    const { router } = renderApp('/timeline');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('/auth sends a signed-in author to /', async () => {
    signedIn();
    const { router } = renderApp('/auth');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('the account screens while signed in', () => {
  it.each(['/login', '/register', '/login?registered=true'])('%s sends a signed-in author to /', async (path) => {
    signedIn();
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('button', { name: /log in|create account/i })).toBeNull();
  });

  it('/auth shows its floating decoration to a signed-out visitor', async () => {
    stubFetch({ 'GET /api/user': { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } } });
    renderApp('/auth');
    const layer = await screen.findByTestId('floating-emoji');
    expect(layer.getAttribute('aria-hidden')).toBe('true');
    expect(layer.children).toHaveLength(8);
  });
});
