/**
 * Plans and products end to end in Chromium, against the real server whose `stripe` SDK talks to
 * the suite's fake Stripe (playwright.config.ts; sync-server/test/support/fake-stripe.ts), which
 * hosts a Checkout page double and delivers signed webhooks. Stripe.js cannot be loaded here: these
 * tests serve a TEST DOUBLE of js.stripe.com through Playwright's routing
 * (support/stripe-js-double.ts), forwarding its api.stripe.com calls to the fake Stripe.
 */
import { expect, test } from '@playwright/test';
import { seriousA11yViolations, signUpViaApi } from '../support';
import { useStripeJsDouble } from '../support/stripe-js-double';

test.describe('billing', () => {
  test('subscribe → webhook → the plan and its unlocked features appear without a reload', async ({ page }) => {
    await signUpViaApi(page);
    expect((await page.request.post('/api/series', { data: { title: 'Earthsea', totalBooks: 3 } })).status()).toBe(201);
    await page.goto('/subscriptions');
    await expect(page.getByRole('heading', { name: 'Subscription Plans', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('current-plan-name')).toHaveText('Apprentice');

    await page.getByTestId('plan-wordsmith').getByRole('button', { name: /Subscribe Now/ }).click();
    // Stripe Checkout (the fake's hosted page double): pay, and come back to the site.
    await expect(page.getByRole('heading', { name: 'Stripe Checkout (test double)' })).toBeVisible();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page).toHaveURL(/\/subscriptions\?checkout=success/);
    // "Confirming your subscription" shows only until the subscription is active: when the webhook
    // beats the redirect it is gone at once, so it is not asserted here (billing-screens.test.tsx has both orders).
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    // The webhook lands a moment later: the plan follows live.
    await expect(page.getByTestId('current-plan-name')).toHaveText('The Wordsmith', { timeout: 20_000 });
    await expect(page.getByTestId('sidebar-user-plan')).toHaveText('The Wordsmith Plan');
    await expect(page.getByText('Subscription active')).toBeVisible();
    // An unlocked feature: the timeline, reached in the same document.
    await page.getByRole('link', { name: 'Timeline' }).first().click();
    await expect(page.getByRole('heading', { name: 'Timeline', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Event' })).toBeEnabled();
    await expect(page.getByText('Feature Locked')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  test('buying the Custom Theme Pack adds its themes to the picker', async ({ page }) => {
    await useStripeJsDouble(page);
    await signUpViaApi(page);
    await page.goto('/products');
    const pack = page.getByTestId('product-custom-theme-pack');
    await expect(pack).toBeVisible({ timeout: 20_000 });
    await pack.getByRole('link', { name: /Purchase Now/ }).click();
    await expect(page).toHaveURL(/\/checkout\?productId=custom-theme-pack&amount=4\.99/);
    await expect(page.getByRole('heading', { name: 'Complete your purchase', level: 1 })).toBeVisible();
    await expect(page.getByTestId('checkout-price')).toHaveText('$4.99');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $4.99' }).click();
    await expect(page.getByText('Payment Successful').first()).toBeVisible({ timeout: 20_000 });

    await page.getByRole('link', { name: 'Go to your products' }).click();
    await expect(page.getByTestId('product-custom-theme-pack').getByText('Owned')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: /Choose theme/ }).first().click();
    await expect(page.getByRole('menuitem', { name: 'Nebula' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Nebula' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'nebula');
  });

  test('a declined card shows "Payment Failed" with the provider\'s message and grants nothing', async ({ page }) => {
    await useStripeJsDouble(page);
    await signUpViaApi(page);
    await page.goto('/checkout?productId=inspiration-pack&amount=7.99');
    await expect(page.getByRole('heading', { name: 'Complete your purchase', level: 1 })).toBeVisible({ timeout: 20_000 });
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $7.99' }).click();
    await expect(page.getByText('Payment Failed')).toBeVisible();
    await expect(page.getByText('Your card was declined.')).toBeVisible();
    // Still on the form, and nothing owned.
    await expect(page.getByRole('button', { name: 'Pay $7.99' })).toBeEnabled();
    const status = (await (await page.request.get('/api/billing/status')).json()) as { entitlements: unknown[] };
    expect(status.entitlements).toEqual([]);
  });

  test('the five pack themes are axe-clean on the plan and product pages', async ({ page }) => {
    test.setTimeout(180_000);
    await signUpViaApi(page);
    // Bought without the page: a PaymentIntent from the server, confirmed at the fake Stripe, which
    // delivers the signed webhook that grants the pack.
    const intent = (await (await page.request.post('/api/create-payment-intent', { data: { items: [{ id: 'custom-theme-pack' }], amount: 4.99 } })).json()) as { clientSecret: string };
    const id = intent.clientSecret.split('_secret_')[0]!;
    const confirm = await fetch(`${process.env.E2E_FAKE_STRIPE_URL}/v1/payment_intents/${id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_secret=${encodeURIComponent(intent.clientSecret)}&card=4242424242424242`,
    });
    expect(confirm.status).toBe(200);
    await expect.poll(async () => ((await (await page.request.get('/api/billing/status')).json()) as { entitlements: unknown[] }).entitlements.length, { timeout: 20_000 }).toBe(1);
    await page.emulateMedia({ reducedMotion: 'reduce' });

    await page.goto('/products');
    await expect(page.getByTestId('product-custom-theme-pack').getByText('Owned')).toBeVisible({ timeout: 20_000 });
    for (const theme of ['parchment', 'forest', 'ocean', 'nebula', 'rosewood']) {
      await page.getByRole('button', { name: /Choose theme/ }).first().click();
      await page.getByRole('menuitem', { name: new RegExp(`^${theme}$`, 'i') }).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      for (const path of ['Products', 'Subscriptions']) {
        await page.getByRole('link', { name: path }).first().click();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await seriousA11yViolations(page), `${theme} ${path}`).toEqual([]);
      }
    }
  });
});
