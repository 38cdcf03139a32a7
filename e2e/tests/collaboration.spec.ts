/**
 * Collaboration with three browser contexts: an owner on Loremaster invites an editor
 * and a viewer by e-mail; both accept; the editor writes a chapter offline while the owner edits
 * the same chapter online → both see the merged text (or a conflict copy), no sentence lost; the
 * viewer sees the owner's edit appear within seconds and cannot edit (the editor, characters, world
 * and timeline); the owner removes the viewer, whose app drops the series. Invites reach the open
 * Collaboration page and presence in the chapter comes and goes over the sync stream, in seconds.
 */
import { type APIRequestContext, type Browser, type BrowserContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, setPlan, signUpViaApi, toast, uniqueUsername } from '../support';
import { endOnScreen, expectReopenedAtCaret, longChapter, paragraphAt, readToEndAndWrite, wheelUntilOnScreen } from '../support/long-chapter';

test.use({ viewport: { width: 1280, height: 900 } });

async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: test.info().project.use.baseURL });
}

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(path) : await request.post(path, { data });
  expect(res.ok(), `${method} ${path} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const content = (page: Page) => page.getByTestId('chapter-content');

/** Accepts on the Collaboration page, already open: the invite arrived there live (no reload, before the 30 s refresh). */
async function acceptInvite(page: Page, seriesName: string): Promise<void> {
  await expect(page.getByRole('tab', { name: /Invites\s*1/ })).toBeVisible({ timeout: 10_000 });
  await page.getByRole('tab', { name: /Invites/ }).click();
  const card = page.getByTestId(/^invite-/).filter({ hasText: seriesName });
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(toast(page, 'You have joined the collaborative series.').last()).toBeVisible();
  await page.getByRole('tab', { name: /Contributing/ }).click();
  await expect(page.getByText(seriesName)).toBeVisible();
}

async function invite(page: Page, card: ReturnType<Page['getByTestId']>, email: string, role: 'Editor' | 'Viewer'): Promise<void> {
  await card.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /E-mail/ }).fill(email);
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: new RegExp(`^${role} —`) }).click();
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(toast(page, 'Invitation sent').last()).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('owner, editor and viewer: invites, offline and online edits converge, the viewer reads live and is removed', async ({ browser }) => {
  test.setTimeout(240_000);
  const [ownerCtx, editorCtx, viewerCtx] = [await newContext(browser), await newContext(browser), await newContext(browser)];
  const [ownerPage, editorPage, viewerPage] = [await ownerCtx.newPage(), await editorCtx.newPage(), await viewerCtx.newPage()];
  const mail = (who: string) => `${uniqueUsername(who)}@example.com`;
  const owner = await signUpViaApi(ownerPage, { displayName: 'Olga Owner', email: mail('owner') });
  const editor = await signUpViaApi(editorPage, { displayName: 'Edda Editor', email: mail('editor') });
  const viewer = await signUpViaApi(viewerPage, { displayName: 'Vera Viewer', email: mail('viewer') });
  await setPlan(owner.username, 'loremaster', ownerPage);
  // The timeline screen is the viewer's own plan's feature; the series' content is the owner's.
  await setPlan(viewer.username, 'wordsmith', viewerPage);
  // The invitees have the Collaboration page open before anything is sent.
  for (const page of [editorPage, viewerPage]) {
    await page.goto('/collaboration');
    await expect(page.getByRole('tab', { name: /Invites\s*0/ })).toBeVisible({ timeout: 30_000 });
  }

  // The owner creates a collaborative series and invites both by e-mail.
  const seriesName = `The Shared Saga ${uniqueUsername('s')}`;
  await ownerPage.goto('/collaboration');
  await ownerPage.getByRole('button', { name: 'New Series' }).first().click();
  const dialog = ownerPage.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /Series name/ }).fill(seriesName);
  await dialog.getByRole('textbox', { name: /Description/ }).fill('Three authors, one saga.');
  await dialog.getByRole('button', { name: 'Create Series' }).click();
  await expect(toast(ownerPage, 'Series created').last()).toBeVisible();
  const card = ownerPage.getByTestId(/^collab-series-/).filter({ hasText: seriesName });
  await expect(card).toBeVisible();
  const seriesId = (await card.getAttribute('data-testid'))!.replace('collab-series-', '');
  await invite(ownerPage, card, editor.email!, 'Editor');
  await invite(ownerPage, card, viewer.email!, 'Viewer');

  await acceptInvite(editorPage, seriesName);
  await acceptInvite(viewerPage, seriesName);
  await ownerPage.reload();
  await expect(ownerPage.getByTestId(/^collab-series-/).filter({ hasText: seriesName })).toContainText('2 collaborators');

  // A chapter in two paragraphs.
  const book = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/books', { seriesId, title: 'Book One' });
  const chapter = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/chapters', {
    bookId: book.id,
    title: 'The Meeting',
    content: 'The three of them met at the inn.\n\nRain fell all night.',
  });
  const url = `/chapter-editor?id=${chapter.id}&bookId=${book.id}&seriesId=${seriesId}`;
  for (const page of [ownerPage, editorPage, viewerPage]) {
    await page.goto(url);
    await expect(content(page)).toContainText('Rain fell all night.', { timeout: 30_000 });
  }

  // Everyone sees who else is in the chapter, pushed on the sync stream (the heartbeat is 15 s).
  await expect(ownerPage.getByTestId('presence')).toHaveText('2 co-authors here', { timeout: 5_000 });
  await expect(viewerPage.getByTestId('presence')).toBeVisible({ timeout: 5_000 });
  // The badge does not push the toolbar onto a second row (1280 wide, the sidebar open).
  const toolbarHeight = (await ownerPage.getByTestId('editor-toolbar').boundingBox())!.height;
  expect(toolbarHeight, 'the editor toolbar is one row').toBeLessThan(72);

  // The viewer reads only, and says why.
  await expect(viewerPage.getByTestId('read-only-banner')).toBeVisible();
  await expect(viewerPage.getByRole('textbox', { name: 'Chapter title' })).toBeDisabled();
  await content(viewerPage).click();
  await viewerPage.keyboard.type('Vandalism');
  await expect(content(viewerPage)).not.toContainText('Vandalism');

  // The viewer leaves the chapter: the others see it at once. Characters, world and timeline are read-only too.
  await viewerPage.goto('/characters');
  await expect(ownerPage.getByTestId('presence')).toHaveText('Edda Editor is here', { timeout: 5_000 });
  for (const [path, offer] of [['/characters', 'New Character'], ['/world', 'New Element'], ['/timeline', 'Add Event']] as const) {
    if (path !== '/characters') await viewerPage.goto(path);
    await expect(viewerPage.getByTestId('read-only-notice')).toBeVisible({ timeout: 15_000 });
    await expect(viewerPage.getByRole('button', { name: offer })).toHaveCount(0);
  }
  await viewerPage.goto(url);
  await expect(content(viewerPage)).toContainText('Rain fell all night.', { timeout: 30_000 });
  await expect(ownerPage.getByTestId('presence')).toHaveText('2 co-authors here', { timeout: 5_000 });

  // The editor writes offline (the second paragraph); the owner edits online (the first).
  const editorSentence = ' Thunder rolled over the hills.';
  const ownerSentence = ' The innkeeper lit a lantern.';
  await goOffline(editorCtx);
  await content(editorPage).click();
  await editorPage.keyboard.press('ControlOrMeta+End');
  await editorPage.keyboard.type(editorSentence);
  await editorPage.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(editorPage, 'Chapter saved').last()).toBeVisible();

  await content(ownerPage).click();
  await ownerPage.keyboard.press('ControlOrMeta+Home');
  await ownerPage.keyboard.press('End');
  await ownerPage.keyboard.type(ownerSentence);
  await ownerPage.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(ownerPage, 'Chapter saved').last()).toBeVisible();

  // The viewer sees the owner's words arrive within seconds, with no reload.
  await expect(content(viewerPage)).toContainText(ownerSentence.trim(), { timeout: 10_000 });

  // The editor comes back: both sentences end up on the server, merged or in a conflict copy.
  await goOnline(editorCtx);
  await expect
    .poll(
      async () => {
        const stored = await api<{ content: string }>(ownerCtx.request, 'GET', `/api/chapters/${chapter.id}`);
        const copies = await api<Array<{ content: string }>>(ownerCtx.request, 'GET', `/api/chapters/${chapter.id}/conflicts`);
        const everything = [stored.content, ...copies.map((c) => c.content)].join('\n');
        return everything.includes(ownerSentence.trim()) && everything.includes(editorSentence.trim());
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const merged = await api<{ content: string }>(ownerCtx.request, 'GET', `/api/chapters/${chapter.id}`);
  if (merged.content.includes(editorSentence.trim())) {
    // A clean merge: every device shows both sentences.
    for (const page of [ownerPage, editorPage, viewerPage]) {
      await expect(content(page)).toContainText(editorSentence.trim(), { timeout: 20_000 });
      await expect(content(page)).toContainText(ownerSentence.trim());
    }
  } else {
    await expect(ownerPage.getByTestId('conflict-banner')).toBeVisible({ timeout: 20_000 });
  }

  // The owner removes the viewer; the viewer's app drops the series.
  await ownerPage.goto('/collaboration');
  const ownerCard = ownerPage.getByTestId(`collab-series-${seriesId}`);
  await ownerCard.getByRole('button', { name: 'Members' }).click();
  await ownerCard.getByRole('button', { name: 'Remove Vera Viewer' }).click();
  await ownerPage.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(toast(ownerPage, 'Member removed').last()).toBeVisible();

  await expect
    .poll(() => viewerPage.evaluate(async (id) => {
      const dbs = await indexedDB.databases();
      const name = dbs.map((d) => d.name).find((n) => n?.startsWith('chronicler-'));
      if (!name) return -1;
      return new Promise<number>((resolve) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => {
          const tx = open.result.transaction(['series', 'chapters'], 'readonly');
          let count = 0;
          const series = tx.objectStore('series').get(id);
          series.onsuccess = () => (count += series.result ? 1 : 0);
          const chapters = tx.objectStore('chapters').index('seriesId').count(id);
          chapters.onsuccess = () => (count += chapters.result);
          tx.oncomplete = () => {
            open.result.close();
            resolve(count);
          };
        };
      });
    }, seriesId), { timeout: 15_000 })
    .toBe(0);
  // The open chapter says why it is gone; the series list has nothing of it.
  await expect(viewerPage.getByTestId('series-gone')).toBeVisible({ timeout: 15_000 });
  await viewerPage.goto('/series');
  await expect(viewerPage.getByText('No Series Yet')).toBeVisible({ timeout: 15_000 });

  for (const ctx of [ownerCtx, editorCtx, viewerCtx]) await ctx.close();
});

test('a 20,000-word shared chapter: a co-author writes at its end, the owner reading there sees it arrive in place, both reopen at their caret', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [ownerCtx, editorCtx] = [await newContext(browser), await newContext(browser)];
  const [ownerPage, editorPage] = [await ownerCtx.newPage(), await editorCtx.newPage()];
  const owner = await signUpViaApi(ownerPage, { displayName: 'Olga Owner' });
  await signUpViaApi(editorPage, { displayName: 'Edda Editor' });
  await setPlan(owner.username, 'loremaster', ownerPage);
  const series = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/collaboration/series', { name: `The Long Saga ${uniqueUsername('s')}`, description: 'Written together.' });
  const link = await api<{ token: string }>(ownerCtx.request, 'POST', `/api/collaboration/series/${series.id}/invite-links`, { role: 'editor' });
  await api(editorCtx.request, 'POST', '/api/collaboration/invite-links/accept', { token: link.token });
  const book = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/books', { seriesId: series.id, title: 'Book One' });
  const chapter = longChapter(20_000);
  const created = await api<{ id: string }>(ownerCtx.request, 'POST', '/api/chapters', { bookId: book.id, title: 'The Crossing', content: chapter.text });
  const url = `/chapter-editor?id=${created.id}&bookId=${book.id}&seriesId=${series.id}`;
  for (const page of [ownerPage, editorPage]) {
    await page.goto(url);
    await expect(paragraphAt(page, chapter.first)).toBeVisible({ timeout: 30_000 });
  }
  await expect(ownerPage.getByTestId('presence')).toHaveText('Edda Editor is here', { timeout: 10_000 });

  // The owner reads at the end of the chapter; the co-author writes there and saves.
  await wheelUntilOnScreen(ownerPage, paragraphAt(ownerPage, chapter.last));
  const scrolled = await ownerPage.evaluate(() => window.scrollY);
  const added = ' The bridge held, and the wagons crossed before dark.';
  await readToEndAndWrite(editorPage, chapter, added);
  await editorPage.keyboard.press('ControlOrMeta+s');
  await expect(toast(editorPage, 'Chapter saved').last()).toBeVisible();

  // It arrives on the owner's screen where she is reading, and her place in the chapter stays put.
  await expect(ownerPage.getByText(added.trim())).toBeVisible({ timeout: 15_000 });
  expect(await endOnScreen(ownerPage.getByText(added.trim()))).toBe(true);
  expect(Math.abs((await ownerPage.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(200);

  // The owner answers at the end; the co-author sees it live, then both reopen where their caret was.
  await paragraphAt(ownerPage, chapter.last).click();
  await ownerPage.keyboard.press('ControlOrMeta+End');
  await ownerPage.keyboard.type(' Olga counted them across.');
  await ownerPage.keyboard.press('ControlOrMeta+s');
  await expect(toast(ownerPage, 'Chapter saved').last()).toBeVisible();
  await expect(editorPage.getByText('Olga counted them across.')).toBeVisible({ timeout: 15_000 });
  for (const [page, before, next] of [
    [ownerPage, `${added} Olga counted them across.`, ' Night fell.'],
    // The co-author's caret stayed where she stopped typing, before the owner's words that arrived after it.
    [editorPage, added, ' Rain followed.'],
  ] as const) {
    await page.reload();
    await expect(paragraphAt(page, chapter.last)).toBeVisible({ timeout: 30_000 });
    await expectReopenedAtCaret(page, before, next);
  }
  await ownerCtx.close();
  await editorCtx.close();
});
