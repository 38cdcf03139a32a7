import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { freshDb } from '@chronicler/sync-client/testing';
import { renderEditor } from './test-utils';

let db: ChroniclerDb;
afterEach(() => db?.close());

/** The editor at its route, next to the pages the entry rule leads to. */
function renderAt(path: string) {
  db = freshDb();
  return renderEditor(db, path).router;
}

describe('the chapter-editor entry rule (spec 001 §2)', () => {
  it('shows the editor when bookId is present (with or without id and seriesId)', async () => {
    const router = renderAt('/chapter-editor?bookId=0190a6f0-0000-7000-8000-00000000000b');
    expect(await screen.findByRole('heading', { name: 'Chapter Editor', level: 1 }, { timeout: 5000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/chapter-editor');
  });

  it('goes to /series?id={seriesId} with only seriesId', async () => {
    const router = renderAt('/chapter-editor?seriesId=s-42');
    await waitFor(() => expect(router.state.location.pathname).toBe('/series'));
    expect(router.state.location.search).toBe('?id=s-42');
    expect(screen.getByText('Series page')).toBeTruthy();
  });

  it('goes to / with neither', async () => {
    const router = renderAt('/chapter-editor?id=c1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.getByText('Home page')).toBeTruthy();
  });
});
