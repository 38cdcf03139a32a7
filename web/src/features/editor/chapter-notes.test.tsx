/** A chapter's synopsis and notes beside the text: autosaved through the outbox, never counted as writing; a sheet on a phone. */
import { afterEach, describe, expect, it } from 'vitest';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@codemirror/view';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { editorPath, renderEditor, seedDb, typeAtEnd } from './test-utils';

configure({ asyncUtilTimeout: 5000 });

let db: ChroniclerDb | undefined;
const realMatchMedia = window.matchMedia;

afterEach(() => {
  window.matchMedia = realMatchMedia;
  db?.close();
  db = undefined;
});

/** A screen as wide as `px`: min-width queries answer by it. */
function screenWidth(px: number) {
  window.matchMedia = ((query: string) => {
    const min = /min-width:\s*([\d.]+)(em|px)/.exec(query);
    const matches = min ? px >= Number(min[1]) * (min[2] === 'em' ? 16 : 1) : false;
    return { ...realMatchMedia(query), matches };
  }) as typeof window.matchMedia;
}

function notesView(): EditorView {
  const el = screen.getByTestId('chapter-notes-content');
  const view = el ? EditorView.findFromDOM(el) : null;
  if (!view) throw new Error('No notes editor');
  return view;
}

describe('synopsis and notes in the editor', () => {
  it('autosave beside the text through the outbox, and are not counted as writing', async () => {
    screenWidth(1400);
    const seeded = await seedDb();
    db = seeded.db;
    renderEditor(seeded.db, editorPath(seeded));
    const synopsis = await screen.findByRole('textbox', { name: 'Synopsis' }, { timeout: 5000 });
    const user = userEvent.setup({ delay: null });
    await user.type(synopsis, 'Mara finds the *map*.');
    await waitFor(async () => expect((await seeded.db.chapters.get(seeded.chapter.id))?.synopsis).toBe('Mara finds the *map*.'));

    await waitFor(() => notesView());
    // The chapter's text is still the one `chapter-content`.
    expect(screen.getAllByTestId('chapter-content')).toHaveLength(1);
    typeAtEnd('Check the tide tables.', notesView());
    await waitFor(async () => expect((await seeded.db.chapters.get(seeded.chapter.id))?.notes).toBe('Check the tide tables.'));

    const row = (await seeded.db.chapters.get(seeded.chapter.id))!;
    expect(row.wordCount).toBe(seeded.chapter.wordCount);
    expect(row.content).toBe(seeded.chapter.content);
    // One update (the two saves coalesced), carrying no writing mark: nothing here is writing.
    const entries = await seeded.db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]!.body).toEqual({ synopsis: 'Mara finds the *map*.', notes: 'Check the tide tables.' });
    expect(screen.getByTestId('words-badge').textContent).toContain('4');
  });

  it('open as a sheet on a phone', async () => {
    screenWidth(390);
    const seeded = await seedDb({ synopsis: 'Already planned.' });
    db = seeded.db;
    renderEditor(seeded.db, editorPath(seeded));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Synopsis and notes' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Synopsis and notes' });
    expect(dialog).toBeTruthy();
    expect(((await screen.findByRole('textbox', { name: 'Synopsis' })) as HTMLTextAreaElement).value).toBe('Already planned.');
  });
});
