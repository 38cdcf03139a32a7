import { expect, test } from '@playwright/test';

test('the server answers and the PWA shell loads at /auth', async ({ page, request }) => {
  const me = await request.get('/api/user');
  expect(me.status()).toBe(401);
  await page.goto('/auth');
  await expect(page).toHaveTitle(/Chronicler/);
  await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
});
