/**
 * The author's own record syncs like any row (packages/sync-client README,
 * "User-scoped kinds"): a plan set by the operator command in another process reaches the open app
 * without a reload — the sidebar's plan label and the feature gates follow it — and the app stores
 * the browser's time zone on the record when it has none.
 */
import { expect, test } from '@playwright/test';
import { operatorCli, signUpViaApi } from '../support';

test.describe('the author record, live', () => {
  test.use({ timezoneId: 'Asia/Tokyo' });

  test('a plan set by the operator command shows and unlocks the timeline without a reload', async ({ page }) => {
    const author = await signUpViaApi(page);
    const series = await page.request.post('/api/series', { data: { title: 'Earthsea', totalBooks: 3 } });
    expect(series.status()).toBe(201);

    await page.goto('/timeline');
    await expect(page.getByRole('heading', { name: 'Timeline', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('sidebar-user-plan')).toHaveText(/Apprentice Plan$/);
    await expect(page.getByText('Feature Locked')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Event' })).toBeDisabled();
    // A marker that dies with a reload: the page below must be this very one.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    const out = await operatorCli('user:plan', '--username', author.username, '--plan', 'wordsmith');
    expect(out).toContain(`${author.username} is now on the wordsmith plan`);

    // README: within 10 s of the command (the server looks for other processes' commits every 2 s).
    await expect(page.getByTestId('sidebar-user-plan')).toHaveText(/Wordsmith Plan$/, { timeout: 10_000 });
    await expect(page.getByText('Feature Locked')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add Event' })).toBeEnabled();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  test("the browser's time zone is stored on the author's record when it has none", async ({ page }) => {
    await signUpViaApi(page);
    await page.goto('/');
    await expect
      .poll(
        async () => {
          const feed = (await (await page.request.get('/api/sync/changes?since=0')).json()) as { changes: { users: { timeZone: string | null }[] } };
          return feed.changes.users[0]?.timeZone ?? null;
        },
        { timeout: 15_000 },
      )
      .toBe('Asia/Tokyo');
  });
});
