import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { ThemeProvider } from '@/features/theme';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { SyncTestProvider } from '@/lib/sync';
import { freshDb } from '@chronicler/sync-client/testing';
import ChapterEditorRoute from './ChapterEditorRoute';

let db: ChroniclerDb;
afterEach(() => db?.close());

function renderAt(path: string) {
  db = freshDb();
  const router = createMemoryRouter(
    [
      { path: '/chapter-editor', element: <ChapterEditorRoute /> },
      { path: '/series', element: <p>Series page</p> },
      { path: '/', element: <p>Home page</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <ThemeProvider env="test">
      <SyncTestProvider db={db}>
        <RouterProvider router={router} />
      </SyncTestProvider>
    </ThemeProvider>,
  );
  return router;
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
