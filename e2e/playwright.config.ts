/**
 * End-to-end tests in Debian's Chromium (Playwright cannot download its own browser here) against
 * the real server on a throwaway database, serving the built PWA
 * (docs/measurements.md#platform-facts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3199);
// Workers re-read this file: create the data folder once and hand it down through the env.
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-e2e-'));
}
export const baseURL = `http://127.0.0.1:${port}`;
/** The Stripe-shaped test server (sync-server/test/support/fake-stripe.ts): nothing here reaches Stripe. */
const stripePort = Number(process.env.E2E_STRIPE_PORT ?? port + 100);
export const fakeStripeURL = `http://127.0.0.1:${stripePort}`;
process.env.E2E_FAKE_STRIPE_URL = fakeStripeURL;

export default defineConfig({
  testDir: './tests',
  // E2E_OUTPUT_DIR: keep this run's failure artefacts apart from a parallel run's (each run empties its folder).
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  webServer: [
    {
      // Payments: a fake Stripe the app's SDK talks to and that delivers signed webhooks.
      command: 'pnpm --filter @chronicler/sync-server exec tsx test/support/fake-stripe-main.ts',
      url: `${fakeStripeURL}/__health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { FAKE_STRIPE_PORT: String(stripePort), FAKE_STRIPE_WEBHOOK_URL: `${baseURL}/api/stripe/webhook` },
    },
    {
      command: 'pnpm --filter @chronicler/sync-server start',
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR,
        // E2E_WEB_DIST: test against another build (e.g. `vite build --outDir /tmp/x`) while
        // someone else rebuilds web/dist.
        WEB_DIST: process.env.E2E_WEB_DIST ?? path.resolve(import.meta.dirname, '../web/dist'),
        LOG_LEVEL: 'warn',
        // Many registrations from one IP during the suite.
        RATE_LIMIT_PER_MINUTE: '10000',
        // The fake Stripe above (keys are its own, not Stripe's).
        STRIPE_SECRET_KEY: 'sk_test_chronicler',
        STRIPE_WEBHOOK_SECRET: 'whsec_chronicler_test',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_chronicler',
        STRIPE_API_URL: fakeStripeURL,
      },
    },
  ],
});
