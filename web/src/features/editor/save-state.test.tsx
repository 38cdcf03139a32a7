/** What the editor says about saving is true — unsaved input, offline saves, the change badge. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { editorPath, renderEditor, seedDb, typeAtEnd } from './test-utils';

configure({ asyncUtilTimeout: 5000 });

let db: ChroniclerDb | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  db?.close();
  db = undefined;
});

async function openExisting() {
  const seeded = await seedDb();
  db = seeded.db;
  renderEditor(seeded.db, editorPath(seeded));
  await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
  return seeded;
}

const saveButton = () => screen.getByRole('button', { name: /^(Save|Saving\.\.\.)$/ });
const lastSaved = () => screen.getByTestId('last-saved').textContent;

describe('the save state', () => {
  it('says "Unsaved changes" from the first unsaved keystroke until the save, then "Last saved: Just now"', async () => {
    await openExisting();
    typeAtEnd(' It rose.');
    expect(lastSaved()).toBe('Unsaved changes');
    fireEvent.click(saveButton());
    await waitFor(() => expect(lastSaved()).toBe('Last saved: Just now'));
    typeAtEnd(' Again.');
    expect(lastSaved()).toBe('Unsaved changes');
  });

  it('labels the change badge as the change since the save: "+2 since save"', async () => {
    await openExisting();
    typeAtEnd(' It rose.');
    const badge = screen.getByTestId('change-badge');
    // Counts follow typing at most every 250 ms (hooks/useChapterEditor.ts).
    await waitFor(() => expect(badge.textContent).toBe('+2 since save'));
    expect(badge.getAttribute('aria-label')).toBe('+2 words since the last save');
  });

  it('offline, a save says it is kept on this device and will sync', async () => {
    await openExisting();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    typeAtEnd(' It rose.');
    fireEvent.click(saveButton());
    expect(await screen.findByText('Chapter saved on this device')).toBeTruthy();
    expect(screen.getByText('Your changes will sync when you are back online')).toBeTruthy();
    expect(screen.queryByText('Your changes have been saved')).toBeNull();
  });
});
