/**
 * Two authors on two server instances of one PostgreSQL database, as behind a load balancer with
 * no sticky sessions (docs/server.md#postgresql): the owner's app talks to one instance, her
 * co-author's to the other. Each sees the other in the chapter (presence) and each one's saved
 * words arrive on the other's screen live, carried between the instances by LISTEN/NOTIFY.
 *
 * Needs a PostgreSQL server (TEST_DATABASE_URL, set by .ci/run); without one there is no second
 * storage to run on and the test is skipped, as the server suite's postgres project is.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { operatorCliOnDatabase, signUpViaApi, toast, uniqueUsername } from '../support';

const databaseUrl = process.env.TEST_DATABASE_URL;
const basePort = Number(process.env.E2E_PORT ?? 3199) + 20;
const instanceUrls = [`http://127.0.0.1:${basePort}`, `http://127.0.0.1:${basePort + 1}`] as const;

test.skip(!databaseUrl, 'needs a PostgreSQL server (TEST_DATABASE_URL)');
test.use({ viewport: { width: 1280, height: 900 } });

let instances: ChildProcess | undefined;
/** The database both instances use (the script names it on its ready line). */
let instancesDatabaseUrl = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // Straight under node (no pnpm or tsx wrapper in between), so afterAll's signal reaches the script,
  // which stops both servers and drops its database.
  instances = spawn(process.execPath, ['--import', 'tsx', 'test/support/two-instances-main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../sync-server'),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      INSTANCE_PORTS: `${basePort},${basePort + 1}`,
      WEB_DIST: process.env.E2E_WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
      DATA_DIR: process.env.E2E_DATA_DIR,
    },
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    instances!.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const ready = /instances ready on (\S+)/.exec(seen);
      if (!ready) return;
      const url = new URL(databaseUrl!);
      url.pathname = `/${ready[1]}`;
      instancesDatabaseUrl = url.toString();
      resolve();
    });
    instances!.once('exit', (code) => reject(new Error(`the two instances stopped before they were ready (exit ${code})`)));
  });
});

test.afterAll(async () => {
  if (!instances?.pid || instances.exitCode !== null) return;
  const exited = new Promise((resolve) => instances!.once('exit', resolve));
  instances.kill('SIGTERM');
  await exited;
});

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(url) : await request.post(url, { data });
  expect(res.ok(), `${method} ${url} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const content = (page: Page) => page.getByTestId('chapter-content');

test('an owner on one instance and her co-author on another see each other and each other’s words live', async ({ browser }) => {
  test.setTimeout(180_000);
  const [ownerCtx, editorCtx] = [await browser.newContext({ baseURL: instanceUrls[0] }), await browser.newContext({ baseURL: instanceUrls[1] })];
  const [ownerPage, editorPage] = [await ownerCtx.newPage(), await editorCtx.newPage()];
  const owner = await signUpViaApi(ownerPage, { displayName: 'Olga Owner' });
  await signUpViaApi(editorPage, { displayName: 'Edda Editor' });
  // The plan that shares series, set by the operator command on the database the instances share.
  expect(await operatorCliOnDatabase(instancesDatabaseUrl, 'user:plan', '--username', owner.username, '--plan', 'loremaster')).toContain('now on the loremaster plan');
  const series = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/collaboration/series', { name: `Across Instances ${uniqueUsername('s')}`, description: 'Written on two servers.' });
  const link = await api<{ token: string }>(ownerCtx.request, 'POST', `/api/collaboration/series/${series.id}/invite-links`, { role: 'editor' });
  await api(editorCtx.request, 'POST', '/api/collaboration/invite-links/accept', { token: link.token });
  const book = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/books', { seriesId: series.id, title: 'Book One' });
  const chapter = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/chapters', { bookId: book.id, title: 'Two Shores', content: 'The river ran between the towns.' });
  const url = `/chapter-editor?id=${chapter.id}&bookId=${book.id}&seriesId=${series.id}`;
  for (const page of [ownerPage, editorPage]) {
    await page.goto(url);
    await expect(content(page)).toContainText('The river ran between the towns.', { timeout: 30_000 });
  }

  // Presence crosses instances both ways.
  await expect(ownerPage.getByTestId('presence')).toHaveText('Edda Editor is here', { timeout: 20_000 });
  await expect(editorPage.getByTestId('presence')).toHaveText('Olga Owner is here', { timeout: 20_000 });

  // The co-author saves on her instance; it arrives on the owner's screen on the other.
  await content(editorPage).getByText('The river ran between the towns.').click();
  await editorPage.keyboard.press('ControlOrMeta+End');
  await editorPage.keyboard.type(' A ferry crossed at dawn.');
  await editorPage.keyboard.press('ControlOrMeta+s');
  await expect(toast(editorPage, 'Chapter saved').last()).toBeVisible();
  await expect(content(ownerPage)).toContainText('A ferry crossed at dawn.', { timeout: 15_000 });

  // And back.
  await content(ownerPage).getByText(/A ferry crossed at dawn\./).click();
  await ownerPage.keyboard.press('ControlOrMeta+End');
  await ownerPage.keyboard.type(' Olga paid the ferryman.');
  await ownerPage.keyboard.press('ControlOrMeta+s');
  await expect(toast(ownerPage, 'Chapter saved').last()).toBeVisible();
  await expect(content(editorPage)).toContainText('Olga paid the ferryman.', { timeout: 15_000 });

  // The co-author leaves: the owner's instance hears it from the other.
  await editorCtx.close();
  await expect(ownerPage.getByTestId('presence')).toBeHidden({ timeout: 20_000 });
  await ownerCtx.close();
});
