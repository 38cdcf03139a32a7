/** On a phone the editor has one compact bar, and the status is reachable from its menu. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { PHONE_QUERY } from './components/EditorToolbar';
import { editorPath, renderEditor, seedDb } from './test-utils';

configure({ asyncUtilTimeout: 5000 });

let db: ChroniclerDb | undefined;
const realMatchMedia = window.matchMedia;

beforeEach(() => {
  // A 390 px wide screen: only the phone query matches.
  window.matchMedia = ((query: string) => ({ ...realMatchMedia(query), matches: query === PHONE_QUERY })) as typeof window.matchMedia;
});
afterEach(() => {
  window.matchMedia = realMatchMedia;
  vi.restoreAllMocks();
  db?.close();
  db = undefined;
});

describe('the editor on a phone', () => {
  it('shows one compact bar, and marks the chapter Completed from its menu', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    renderEditor(seeded.db, editorPath(seeded));
    await screen.findByTestId('chapter-content', {}, { timeout: 5000 });

    const bar = screen.getByTestId('editor-toolbar');
    expect(bar.getAttribute('data-compact')).toBe('true');
    expect(within(bar).queryByRole('switch', { name: 'Auto-save' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'History' })).toBeNull();

    const user = userEvent.setup({ delay: null });
    await user.click(within(bar).getByRole('button', { name: 'Chapter options' }));
    await user.click(await screen.findByRole('button', { name: 'Completed' }));
    expect(screen.getByTestId('status-badge').textContent).toBe('Completed');

    fireEvent.click(within(bar).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await seeded.db.chapters.get(seeded.chapter.id))?.status).toBe('completed'));

    await user.click(within(bar).getByRole('button', { name: 'Chapter options' }));
    expect((await screen.findByRole('button', { name: 'Completed' })).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'In Progress' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('switch', { name: 'Auto-save' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'History' })).toBeTruthy();
  });
});
