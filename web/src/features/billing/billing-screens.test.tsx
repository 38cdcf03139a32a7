/**
 * The Subscriptions and Products screens over a real Dexie database (fake-indexeddb); `fetch` is
 * the stubbed boundary (the server's answers are those of
 * sync-server/test/billing/billing.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type BillingStatus, type Entitlement, PLANS, newId, subscriptionPlans } from '@chronicler/schema';
import { stubFetch } from '@/test/fetch-stub';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { ProductsScreen } from './ProductsScreen';
import { SubscriptionsScreen } from './SubscriptionsScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function entitlement(fields: Partial<Entitlement>): Entitlement {
  const stamp = new Date().toISOString();
  return { id: newId(), rev: 3, createdAt: stamp, updatedAt: stamp, deletedAt: null, userId: USER_ID, kind: 'custom-theme-pack', expiresAt: null, giftCode: null, giftRedeemedAt: null, ...fields };
}

function status(fields: Partial<BillingStatus> = {}): BillingStatus {
  return { paymentsConfigured: true, plan: 'apprentice', subscription: null, giftUntil: null, entitlements: [], ...fields };
}

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
}

describe('/subscriptions', () => {
  it('shows the plans, the yearly discount billed annually, and the comparison from the plan table', async () => {
    stubFetch({ 'GET /api/subscription-plans': { status: 200, body: subscriptionPlans() }, 'GET /api/billing/status': { status: 200, body: status() } });
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions' });
    const wordsmith = await screen.findByTestId('plan-wordsmith');
    expect(within(wordsmith).getByText('Most Popular')).toBeTruthy();
    expect(within(wordsmith).getByText('$9.99')).toBeTruthy();
    expect(within(screen.getByTestId('plan-apprentice')).getByText('Current plan')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Yearly (Save 20%)' }));
    const yearly = await screen.findByTestId('plan-wordsmith');
    expect(within(yearly).getByText('$7.99')).toBeTruthy();
    expect(within(yearly).getByText(/\$95\.90 Billed annually/)).toBeTruthy();
    expect(screen.queryByTestId('plan-apprentice')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Compare Features' }));
    const table = await screen.findByRole('table', { name: 'Compare plan features' });
    expect(within(table).getByRole('rowheader', { name: 'Story timeline' })).toBeTruthy();
  });

  it('Subscribe Now sends the plan and interval and goes to Stripe; the current plan only says "Already subscribed"', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost' });
    const { calls } = stubFetch({
      'GET /api/subscription-plans': { status: 200, body: subscriptionPlans() },
      'GET /api/billing/status': { status: 200, body: status({ plan: 'wordsmith' }) },
      'POST /api/subscriptions': { status: 200, body: { url: 'https://checkout.stripe.test/c/pay/cs_1' } },
    });
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions', plan: 'wordsmith' });
    fireEvent.click(within(await screen.findByTestId('plan-wordsmith')).getByRole('button', { name: /Subscribe Now/ }));
    expect(await screen.findByText('Already subscribed')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fireEvent.click(screen.getByRole('tab', { name: 'Yearly (Save 20%)' }));
    fireEvent.click(within(await screen.findByTestId('plan-legendary')).getByRole('button', { name: /Subscribe Now/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_1'));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ planName: 'legendary', interval: 'yearly' });
  });

  it('back from Checkout: "Subscription active" once the subscription is, also when the plan arrived live before the page asked', async () => {
    const active = status({ plan: 'wordsmith', subscription: { plan: 'wordsmith', interval: 'monthly', status: 'active', currentPeriodEnd: null, cancelAtPeriodEnd: false, paymentFailed: false } });
    stubFetch({ 'GET /api/subscription-plans': { status: 200, body: subscriptionPlans() }, 'GET /api/billing/status': { status: 200, body: active } });
    // The webhook won the race: the app already shows The Wordsmith when the page asks.
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions?checkout=success', plan: 'wordsmith' });
    expect(await screen.findByText('Subscription active')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Confirming your subscription')).toBeNull());
  });

  it('a refused checkout shows the server message and resets the processing flag', async () => {
    stubFetch({
      'GET /api/subscription-plans': { status: 200, body: subscriptionPlans() },
      'GET /api/billing/status': { status: 200, body: status() },
      'POST /api/subscriptions': { status: 503, body: { message: 'Payments are not configured on this server', code: 'PAYMENTS_NOT_CONFIGURED' } },
    });
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions' });
    const button = within(await screen.findByTestId('plan-loremaster')).getByRole('button', { name: /Subscribe Now/ });
    fireEvent.click(button);
    expect(await screen.findByText('Error creating checkout session')).toBeTruthy();
    expect(screen.getByText('Payments are not configured on this server')).toBeTruthy();
    await waitFor(() => expect(button.getAttribute('data-loading')).toBeNull());
  });

  it('shows the failed renewal, the end of a cancelled subscription and Manage subscription', async () => {
    const end = '2026-12-24T12:00:00.000Z';
    stubFetch({
      'GET /api/subscription-plans': { status: 200, body: subscriptionPlans() },
      'GET /api/billing/status': {
        status: 200,
        body: status({ plan: 'loremaster', subscription: { plan: 'loremaster', interval: 'monthly', status: 'past_due', currentPeriodEnd: end, cancelAtPeriodEnd: true, paymentFailed: true } }),
      },
    });
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions', plan: 'loremaster' });
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText('Your last payment failed')).toBeTruthy();
    expect(screen.getByText(/Cancelled: Loremaster ends on/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Manage subscription' })).toBeTruthy();
    expect(screen.getByTestId('current-plan-name').textContent).toBe(PLANS.loremaster.displayName);
  });

  it('the empty state when the server lists no plans; the error toast when plans fail to load', async () => {
    stubFetch({ 'GET /api/subscription-plans': { status: 200, body: [] }, 'GET /api/billing/status': { status: 200, body: status() } });
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions' });
    expect(await screen.findByText('No Plans Available')).toBeTruthy();
    expect(screen.getByText('There are currently no subscription plans available.')).toBeTruthy();
  });

  it('plans fail to load: the toast, and the page still shows the shared plan table', async () => {
    stubFetch({ 'GET /api/subscription-plans': { status: 500, body: { message: 'x', code: 'INTERNAL' } }, 'GET /api/billing/status': { status: 200, body: status() } });
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions' });
    expect(await screen.findByText('Failed to load subscription plans')).toBeTruthy();
    expect(screen.getByTestId('plan-legendary')).toBeTruthy();
  });

  it('offline: renders from the shared table, and subscribing says it needs a connection', async () => {
    setOnline(false);
    const { calls } = stubFetch({});
    renderWithDb(<SubscriptionsScreen />, { path: '/subscriptions' });
    const card = await screen.findByTestId('plan-wordsmith');
    expect((within(card).getByRole('button', { name: /Subscribe Now/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(card).getByRole('button', { name: /needs a connection/ })).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('/products', () => {
  it('lists the five products, marks owned ones from the local database, and links Purchase Now to checkout', async () => {
    stubFetch({ 'GET /api/billing/status': { status: 200, body: status({ entitlements: [entitlement({ kind: 'custom-theme-pack' })] }) } });
    renderWithDb(<ProductsScreen />, { path: '/products' });
    const theme = await screen.findByTestId('product-custom-theme-pack');
    await waitFor(() => expect(within(theme).getByText('Owned')).toBeTruthy());
    expect(within(theme).queryByRole('link')).toBeNull();
    const toolkit = screen.getByTestId('product-writers-toolkit');
    expect(within(toolkit).getByRole('link', { name: /Purchase Now/ }).getAttribute('href')).toBe('/checkout?productId=writers-toolkit&amount=9.99');
    expect(screen.getAllByTestId(/^product-/)).toHaveLength(5);
  });

  it('offline: owned products still show from the device, buying needs a connection', async () => {
    const first = renderWithDb(<p />, { path: '/' });
    await first.db.entitlements.put(entitlement({ kind: 'inspiration-pack' }));
    first.unmount();
    setOnline(false);
    stubFetch({});
    renderWithDb(<ProductsScreen />, { path: '/products', db: first.db });
    const pack = await screen.findByTestId('product-inspiration-pack');
    await waitFor(() => expect(within(pack).getByText('Owned')).toBeTruthy());
    const buy = within(screen.getByTestId('product-writers-toolkit')).getByRole('button', { name: /needs a connection/ }) as HTMLButtonElement;
    expect(buy.disabled).toBe(true);
  });

  it('shows bought gift codes and the priority support form with the remaining days', async () => {
    const in10Days = new Date(Date.now() + 10 * 86_400_000 - 1000).toISOString();
    const { calls } = stubFetch({
      'GET /api/billing/status': {
        status: 200,
        body: status({ entitlements: [entitlement({ kind: 'gift-subscription', giftCode: 'ABCD-EFGH-JKMN' }), entitlement({ kind: 'premium-support', expiresAt: in10Days })] }),
      },
      'GET /api/support-requests': { status: 200, body: [] },
      'POST /api/support-requests': { status: 201, body: { id: newId(), subject: 'Export help', createdAt: new Date().toISOString() } },
    });
    renderWithDb(<ProductsScreen />, { path: '/products' });
    expect(await screen.findByText('ABCD-EFGH-JKMN')).toBeTruthy();
    expect(await screen.findByText('Premium Support: 10 days remaining.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Please enter a subject')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Subject/), { target: { value: 'Export help' } });
    fireEvent.change(screen.getByLabelText(/How can we help/), { target: { value: 'DOCX export of book two fails.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Request sent')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ subject: 'Export help', message: 'DOCX export of book two fails.' });
  });
});
