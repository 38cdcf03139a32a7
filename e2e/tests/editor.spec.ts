/**
 * The chapter editor against the real server and the built PWA: writing and saving, working
 * offline (service worker shell, local store, sync on reconnect), two sessions editing the same
 * paragraph offline (one text wins, the other becomes a conflict copy, no sentence lost), and a
 * page killed mid-typing (the draft is offered when the chapter is opened again).
 */
import { type APIRequestContext, type Browser, type BrowserContext, type Page, expect, test } from '@playwright/test';
import { goOffline, goOnline, seriousA11yViolations, signInViaApi } from '../support';
import { longChapter, wheelWithinUntilShown } from '../support/long-chapter';
import { api, chapterContent, editorUrl, newStory, openEditor } from '../support/story';

const content = chapterContent;

/** Puts the caret at the very end of the chapter and types. */
async function typeAtEnd(page: Page, text: string): Promise<void> {
  await content(page).click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(text);
}

/** The chapter as the server holds it, or null while the server does not have it yet. */
async function maybeServerChapter(request: APIRequestContext, id: string): Promise<{ title: string; content: string } | null> {
  const res = await request.get(`/api/chapters/${id}`);
  return res.ok() ? ((await res.json()) as { title: string; content: string }) : null;
}

async function serverChapter(request: APIRequestContext, id: string) {
  return api<{ title: string; content: string; rev: number }>(request, 'GET', `/api/chapters/${id}`);
}

/** The service worker is installed and active (it serves the shell from then on). */
async function swReady(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 30_000 })
    .toBe('activated');
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1400, height: 900 } });
}

test.describe('chapter editor', () => {
  test('write in the editor and save; create a new chapter; no serious accessibility problems', async ({ browser }) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const story = await newStory(context, 'The river ran cold under the bridge.');
    await openEditor(page, editorUrl(story));

    await expect(page.getByRole('textbox', { name: 'Chapter title' })).toHaveValue('Lanterns');
    await expect(page.getByTestId('book-title')).toHaveText('The First Crossing');
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

    expect(await seriousA11yViolations(page, { include: '#main-content' })).toEqual([]);

    await typeAtEnd(page, ' Mara counted the lanterns.');
    await expect(page.getByTestId('words-badge')).toHaveText('11 words');
    await expect(page.getByTestId('change-badge')).toHaveText('+4 since save');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Chapter saved')).toBeVisible();
    await expect(page.getByTestId('last-saved')).toHaveText('Last saved: Just now');
    await expect
      .poll(async () => (await serverChapter(context.request, story.chapterId)).content, { timeout: 15_000 })
      .toBe('The river ran cold under the bridge. Mara counted the lanterns.');

    // A new chapter: created through the local store, then the URL carries its id.
    await openEditor(page, editorUrl(story, null));
    await expect(page.getByTestId('last-saved')).toHaveText('Never saved');
    await page.getByRole('textbox', { name: 'Chapter title' }).fill('Embers');
    await typeAtEnd(page, 'Smoke rose over the hills.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Chapter created')).toBeVisible();
    await expect(page).toHaveURL(/[?&]id=[0-9a-f-]{36}/);
    const id = new URL(page.url()).searchParams.get('id')!;
    await expect.poll(async () => (await maybeServerChapter(context.request, id))?.title, { timeout: 15_000 }).toBe('Embers');

    // Revision history lists both saves of the first chapter.
    await openEditor(page, editorUrl(story));
    await page.getByRole('button', { name: 'History' }).click();
    await expect(page.getByTestId('revision-item')).toHaveCount(2);
    // Restore the first save: the diff shows what goes, the current text stays in the history.
    await page.getByTestId('revision-item').nth(1).click();
    await expect(page.getByTestId('revision-diff')).toContainText('Mara counted the lanterns.');
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await expect(page.getByText('Chapter saved')).toBeVisible();
    await expect(content(page)).toHaveText('The river ran cold under the bridge.');
    await expect
      .poll(async () => (await serverChapter(context.request, story.chapterId)).content, { timeout: 15_000 })
      .toBe('The river ran cold under the bridge.');
    const revisions = await api<{ wordCount: number }[]>(context.request, 'GET', `/api/chapters/${story.chapterId}/revisions`);
    expect(revisions.map((r) => r.wordCount)).toEqual([7, 11, 7]);
    await context.close();
  });

  test('history: a paragraph added at the end is the only passage that differs from the previous revision', async ({ browser }) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const story = await newStory(context, 'The river ran cold.\n\nHe left.');
    await openEditor(page, editorUrl(story));
    // As authors type: a space after the full stop, then the decision to start a new paragraph.
    await typeAtEnd(page, ' ');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('She stayed behind.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await serverChapter(context.request, story.chapterId)).content, { timeout: 15_000 })
      .toBe('The river ran cold.\n\nHe left. \n\nShe stayed behind.');

    await page.getByRole('button', { name: 'History' }).click();
    await expect(page.getByTestId('revision-item')).toHaveCount(2);
    await page.getByTestId('revision-item').nth(1).click();
    const diff = page.getByTestId('revision-diff');
    await expect(diff.getByText('1 passage differs.')).toBeVisible();
    const changed = diff.locator('[data-testid="diff-left"], [data-testid="diff-right"]');
    await expect(changed.first()).toBeVisible();
    expect((await changed.allTextContents()).join(' | ')).not.toContain('He left.');
    await expect(diff.getByTestId('diff-left')).toContainText('She stayed behind.');
    await context.close();
  });

  test('history of a long chapter: a change at the start and one at the end, both reached in the comparison', async ({ browser }) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const chapter = longChapter(8_000);
    const story = await newStory(context, chapter.text);
    await openEditor(page, editorUrl(story));
    await content(page).click();
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.type('Prologue. ');
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' The end of the road.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await serverChapter(context.request, story.chapterId)).content, { timeout: 15_000 })
      .toBe(`Prologue. ${chapter.text} The end of the road.`);

    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('revision-item').nth(1).click();
    const diff = page.getByTestId('revision-diff');
    await expect(diff.getByText('2 passages differ.')).toBeVisible();
    await expect(diff.getByTestId('diff-left').first()).toContainText('Prologue.');
    // The last change is far down the drawer: the wheel over the drawer brings it into view.
    await wheelWithinUntilShown(page, page.getByRole('dialog', { name: 'Revision history' }), diff.getByTestId('diff-left').filter({ hasText: 'The end of the road.' }));
    await context.close();
  });

  test('offline: edit a chapter, create another, reload offline, then sync exactly once on reconnect', async ({ browser }) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const story = await newStory(context, 'Before the storm.');
    await openEditor(page, editorUrl(story));
    await swReady(page);

    await goOffline(context);
    expect(await page.evaluate(() => fetch('/api/health').then(() => 'reached', () => 'offline'))).toBe('offline');

    await typeAtEnd(page, ' The storm came at night.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Chapter saved')).toBeVisible();
    await expect(page.getByTestId('offline-badge')).toBeVisible();

    // Another chapter, created offline (the shell comes from the service worker).
    await openEditor(page, editorUrl(story, null));
    await page.getByRole('textbox', { name: 'Chapter title' }).fill('After the Storm');
    await typeAtEnd(page, 'Morning found the village quiet.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Chapter created')).toBeVisible();
    await expect(page).toHaveURL(/[?&]id=[0-9a-f-]{36}/);
    const newId = new URL(page.url()).searchParams.get('id')!;

    // Reload while offline: the app and the words are still there.
    await page.reload();
    await expect(content(page)).toHaveText('Morning found the village quiet.', { timeout: 20_000 });
    await expect(page.getByRole('textbox', { name: 'Chapter title' })).toHaveValue('After the Storm');
    await openEditor(page, editorUrl(story));
    await expect(content(page)).toHaveText('Before the storm. The storm came at night.');
    await page.getByRole('button', { name: 'History' }).click();
    await expect(page.getByTestId('revisions-offline')).toBeVisible();
    await page.keyboard.press('Escape');

    // Nothing reached the server yet.
    expect((await serverChapter(context.request, story.chapterId)).content).toBe('Before the storm.');

    await goOnline(context);
    await expect
      .poll(async () => (await serverChapter(context.request, story.chapterId)).content, { timeout: 30_000 })
      .toBe('Before the storm. The storm came at night.');
    await expect
      .poll(async () => (await api<{ id: string }[]>(context.request, 'GET', `/api/books/${story.bookId}/chapters`)).length, { timeout: 30_000 })
      .toBe(2);
    const chapters = await api<{ id: string; title: string }[]>(context.request, 'GET', `/api/books/${story.bookId}/chapters`);
    expect(chapters.map((c) => c.title).sort()).toEqual(['After the Storm', 'Lanterns']);
    const created = await serverChapter(context.request, newId);
    expect(created).toMatchObject({ title: 'After the Storm', content: 'Morning found the village quiet.' });
    await context.close();
  });

  test('two sessions edit the same paragraph offline: one wins, the other is a conflict copy, no sentence lost', async ({ browser }) => {
    const a = await newContext(browser);
    const b = await newContext(browser);
    const opening = 'The ferry left at dawn.';
    // As long as a real chapter: the comparison and the merge editor must reach its end.
    const story = await newStory(a, `${opening}\n\n${longChapter(5_000).text}\n\nThe harbour was empty.`);
    await signInViaApi(b, story);
    const pageA = await a.newPage();
    const pageB = await b.newPage();
    await openEditor(pageA, editorUrl(story));
    await openEditor(pageB, editorUrl(story));
    await goOffline(a);
    await goOffline(b);

    const sentenceA = ' Gulls followed it out past the breakwater.';
    const sentenceB = ' Nobody waved from the pier.';
    for (const [page, sentence] of [
      [pageA, sentenceA],
      [pageB, sentenceB],
    ] as const) {
      await content(page).click();
      await page.keyboard.press('ControlOrMeta+Home');
      await page.keyboard.press('End');
      await page.keyboard.type(sentence);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(page.getByText('Chapter saved')).toBeVisible();
    }

    await goOnline(a);
    await expect
      .poll(async () => (await serverChapter(a.request, story.chapterId)).content, { timeout: 30_000 })
      .toContain(sentenceA.trim());
    await goOnline(b);

    // B's text could not be merged: it is kept as a conflict copy and offered in the editor.
    await expect(pageB.getByTestId('conflict-banner')).toBeVisible({ timeout: 30_000 });
    await expect(pageA.getByTestId('conflict-banner')).toBeVisible({ timeout: 30_000 });
    const server = await serverChapter(a.request, story.chapterId);
    const conflicts = await api<{ id: string; content: string }[]>(a.request, 'GET', `/api/chapters/${story.chapterId}/conflicts`);
    expect(conflicts).toHaveLength(1);
    const everything = `${server.content}\n${conflicts[0]!.content}`;
    for (const sentence of [opening, sentenceA.trim(), sentenceB.trim(), 'The harbour was empty.']) expect(everything).toContain(sentence);

    await pageB.getByTestId('conflict-banner').getByRole('button', { name: 'Compare versions' }).click();
    const dialog = pageB.getByRole('dialog', { name: 'Compare versions' });
    await expect(dialog.getByTestId('diff-left').first()).toContainText(sentenceA.trim());
    await expect(dialog.getByTestId('diff-right').first()).toContainText(sentenceB.trim());
    expect(await seriousA11yViolations(pageB, { include: '[role="dialog"]' })).toEqual([]);

    // The author merges both sentences; the merge editor scrolls within the dialog to the chapter's
    // end; the copy is resolved everywhere.
    await dialog.getByRole('button', { name: 'Edit a merge' }).click();
    const mergeEditor = dialog.getByRole('textbox', { name: 'Merged text' });
    await expect(mergeEditor).toContainText(sentenceB.trim());
    await wheelWithinUntilShown(pageB, dialog.getByTestId('merge-area'), dialog.locator('.cm-line').filter({ hasText: 'The harbour was empty.' }));
    await dialog.getByRole('button', { name: 'Save merge' }).click();
    await expect(pageB.getByTestId('conflict-banner')).toBeHidden({ timeout: 15_000 });
    await expect
      .poll(async () => (await serverChapter(a.request, story.chapterId)).content, { timeout: 30_000 })
      .toContain(sentenceB.trim());
    const merged = (await serverChapter(a.request, story.chapterId)).content;
    for (const sentence of [opening, sentenceA.trim(), sentenceB.trim(), 'The harbour was empty.']) expect(merged).toContain(sentence);
    await expect.poll(async () => (await api<unknown[]>(a.request, 'GET', `/api/chapters/${story.chapterId}/conflicts`)).length, { timeout: 30_000 }).toBe(0);
    await expect(pageA.getByTestId('conflict-banner')).toBeHidden({ timeout: 30_000 });
    await a.close();
    await b.close();
  });

  test('a page killed mid-typing: reopening the chapter offers the draft', async ({ browser }) => {
    const context = await newContext(browser);
    const story = await newStory(context, 'It was quiet.');
    const page = await context.newPage();
    await openEditor(page, editorUrl(story));
    await typeAtEnd(page, ' Then the bells began to ring');
    await page.waitForTimeout(1_000); // keystrokes reach IndexedDB within a second
    await page.close({ runBeforeUnload: false });

    const again = await context.newPage();
    await openEditor(again, editorUrl(story));
    const banner = again.getByTestId('draft-banner');
    await expect(banner).toBeVisible();
    await expect(content(again)).toHaveText('It was quiet.');
    await banner.getByRole('button', { name: 'Restore draft' }).click();
    await expect(content(again)).toHaveText('It was quiet. Then the bells began to ring');
    // Nothing was saved to the server: the draft was local only.
    expect((await serverChapter(context.request, story.chapterId)).content).toBe('It was quiet.');
    await again.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await serverChapter(context.request, story.chapterId)).content, { timeout: 15_000 })
      .toBe('It was quiet. Then the bells began to ring');
    await context.close();
  });
});
