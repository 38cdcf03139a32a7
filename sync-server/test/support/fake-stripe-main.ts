/**
 * The fake Stripe as a process, for the browser tests (e2e/playwright.config.ts starts it before
 * the app): FAKE_STRIPE_PORT, FAKE_STRIPE_WEBHOOK_URL (the app's /api/stripe/webhook).
 */
import { startFakeStripe } from './fake-stripe.ts';

const fake = await startFakeStripe({
  port: Number(process.env.FAKE_STRIPE_PORT ?? 3299),
  webhookUrl: process.env.FAKE_STRIPE_WEBHOOK_URL,
  webhookDelayMs: Number(process.env.FAKE_STRIPE_WEBHOOK_DELAY_MS ?? 1500),
});
process.stdout.write(`fake Stripe on ${fake.url}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void fake.close().then(() => process.exit(0)));
