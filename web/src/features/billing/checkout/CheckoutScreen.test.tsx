/**
 * The checkout page over a real Dexie database; `fetch` is the stubbed server. Stripe.js cannot be
 * loaded in jsdom: its loader (`@stripe/stripe-js/pure`, a third party) is replaced by one that
 * never finishes loading, so the page's own states are what is tested here; paying through a
 * Stripe.js double runs in Chromium (e2e/tests/billing.spec.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { stubFetch } from '@/test/fetch-stub';
import { renderWithDb } from '@/test/renderWithDb';
import { CheckoutScreen } from './CheckoutScreen';

const loadStripe = vi.hoisted(() => vi.fn((_key: string) => new Promise<never>(() => undefined)));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  loadStripe.mockClear();
});

const intent = { clientSecret: 'pi_1_secret_2', amount: 4.99, price: 499, publishableKey: 'pk_test_chronicler' };

describe('/checkout', () => {
  it('without productId or amount: "Missing product information" and back to /', async () => {
    stubFetch({});
    renderWithDb(<CheckoutScreen />, { path: '/checkout?productId=writers-toolkit', pattern: '/checkout' });
    expect(await screen.findByText('Missing product information')).toBeTruthy();
    expect(screen.getByText('Product ID and amount are required to proceed with checkout.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
  });

  it('asks the server for a PaymentIntent and loads Stripe.js with the key it gave', async () => {
    const { calls } = stubFetch({ 'POST /api/create-payment-intent': { status: 200, body: intent } });
    renderWithDb(<CheckoutScreen />, { path: '/checkout?productId=custom-theme-pack&amount=4.99', pattern: '/checkout' });
    expect(await screen.findByRole('heading', { name: 'Complete your purchase', level: 1 })).toBeTruthy();
    expect((await screen.findByTestId('checkout-price')).textContent).toBe('$4.99');
    expect(calls[0]!.body).toEqual({ items: [{ id: 'custom-theme-pack' }], amount: 4.99 });
    expect(loadStripe).toHaveBeenCalledWith('pk_test_chronicler');
    expect((screen.getByRole('button', { name: /Pay \$4\.99/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('an amount that is not the price: the real price from the server is paid and shown', async () => {
    const { calls } = stubFetch({
      'POST /api/create-payment-intent': async (init) => {
        const body = JSON.parse(String(init?.body)) as { amount: number };
        return body.amount === 4.99
          ? { status: 200, body: intent }
          : { status: 409, body: { message: 'The price has changed: Custom Theme Pack costs $4.99.', code: 'PRICE_MISMATCH', price: 499, amount: 4.99 } };
      },
    });
    renderWithDb(<CheckoutScreen />, { path: '/checkout?productId=custom-theme-pack&amount=0.01', pattern: '/checkout' });
    expect((await screen.findByTestId('checkout-price')).textContent).toBe('$4.99');
    expect(screen.getByText('The price has changed')).toBeTruthy();
    expect(calls.map((c) => (c.body as { amount: number }).amount)).toEqual([0.01, 4.99]);
  });

  it('setup fails: "Error creating payment" with the server message, then "Unable to initialize payment" and Return to Home', async () => {
    stubFetch({ 'POST /api/create-payment-intent': { status: 503, body: { message: 'Payments are not configured on this server', code: 'PAYMENTS_NOT_CONFIGURED' } } });
    renderWithDb(<CheckoutScreen />, { path: '/checkout?productId=writers-toolkit&amount=9.99', pattern: '/checkout' });
    expect(await screen.findByText('Error creating payment')).toBeTruthy();
    const panel = await screen.findByTestId('checkout-error');
    expect(panel.textContent).toContain('Unable to initialize payment');
    expect(panel.textContent).toContain('Payments are not configured on this server');
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(loadStripe).not.toHaveBeenCalled();
  });

  it('offline: buying needs a connection, nothing is sent', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { calls } = stubFetch({});
    renderWithDb(<CheckoutScreen />, { path: '/checkout?productId=writers-toolkit&amount=9.99', pattern: '/checkout' });
    expect(await screen.findByText('Buying needs a connection')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('back from Stripe with success: "Payment Successful"', async () => {
    stubFetch({ 'GET /api/billing/status': { status: 200, body: { paymentsConfigured: true, plan: 'apprentice', subscription: null, giftUntil: null, entitlements: [] } } });
    renderWithDb(<CheckoutScreen />, { path: '/checkout?productId=writers-toolkit&amount=9.99&payment_intent=pi_1&redirect_status=succeeded', pattern: '/checkout' });
    expect(await screen.findByText('Thank you for your purchase!', { selector: '.mantine-Notification-description' })).toBeTruthy();
    expect(screen.getByTestId('checkout-success')).toBeTruthy();
  });
});
