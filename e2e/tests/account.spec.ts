/** The account screen: devices and password, against the real server. */
import { expect, test } from '@playwright/test';
import { PASSWORD, signInViaApi, signUpViaApi } from '../support';

test('an author signs out another device, then changes the password, which signs out the rest', async ({ page, browser }) => {
  const author = await signUpViaApi(page);
  // A second device: its own browser context, signed in as the same author.
  const phone = await browser.newContext({ baseURL: test.info().project.use.baseURL, userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36' });
  const tablet = await browser.newContext({ baseURL: test.info().project.use.baseURL, userAgent: 'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1' });
  try {
    await signInViaApi(phone.request, author);
    await signInViaApi(tablet.request, author);

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByTestId('session-row')).toHaveCount(3);
    await expect(devices.getByTestId('session-row').filter({ hasText: 'This device' })).toHaveCount(1);

    await devices.getByRole('button', { name: /^Sign out: Chrome on Android/ }).click();
    await expect(page.getByText('Device signed out')).toBeVisible();
    await expect(devices.getByTestId('session-row')).toHaveCount(2);
    expect((await phone.request.get('/api/user')).status()).toBe(401);
    expect((await tablet.request.get('/api/user')).status()).toBe(200);

    // Keyboard only: fill the form and submit with Enter.
    await page.getByRole('textbox', { name: 'Current password', exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('a brand new phrase');
    const confirm = page.getByRole('textbox', { name: 'Confirm new password', exact: true });
    await confirm.fill('a brand new phrase');
    await confirm.press('Enter');
    await expect(page.getByText('Password changed')).toBeVisible();
    await expect(devices.getByTestId('session-row')).toHaveCount(1);
    expect((await tablet.request.get('/api/user')).status()).toBe(401);
    // This device stays signed in, with the new password.
    expect((await page.request.get('/api/user')).status()).toBe(200);
    const login = await page.request.post('/api/login', { data: { username: author.username, password: 'a brand new phrase' } });
    expect(login.status()).toBe(200);
  } finally {
    await phone.close();
    await tablet.close();
  }
});
