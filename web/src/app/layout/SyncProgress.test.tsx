/**
 * The first sync on a new device shows what is arriving and lets the author open what has
 * arrived — through the real SyncProvider and engine against a scripted changes feed whose second
 * page is held back.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { IDBFactory } from 'fake-indexeddb';
import { ThemeProvider } from '@/features/theme';
import { SyncProgress } from '@/features/sync-problems';
import { useSession } from '@/lib/session';
import { TEST_USER, deferred } from '@/test/fetch-stub';
import { openChroniclerDb } from '@chronicler/sync-client';
import { page, scriptedFetch, serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { SyncProvider } from '../SyncProvider';

describe('SyncProgress', () => {
  it('shows the series, chapters and words arrived so far, links them, and goes when the last page is in', async () => {
    const factory = new IDBFactory();
    useSession.setState({ status: 'authenticated', user: { ...TEST_USER }, source: 'server' });
    const series = serverSeries({ title: 'The Salt Roads' });
    const book = serverBook(series.id);
    const chapters = [serverChapter(book, { wordCount: 1200 }), serverChapter(book, { wordCount: 800 })];
    const rest = deferred<void>();
    const fetch = scriptedFetch(async (call) => {
      if (!call.path.startsWith('/api/sync/changes')) return { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } };
      if (call.path.includes('since=0')) return { status: 200, body: page({ series: [series], books: [book], chapters }, 10, { hasMore: true }) };
      await rest.promise;
      return { status: 200, body: page({}, 20) };
    });
    render(
      <ThemeProvider env="test">
        <SyncProvider
          openDb={(id) => openChroniclerDb(id, { indexedDB: factory, IDBKeyRange })}
          engineOptions={{ fetch, eventSource: null, locks: null, platform: { window: null, document: null } }}
        >
          <MemoryRouter>
            <SyncProgress />
          </MemoryRouter>
        </SyncProvider>
      </ThemeProvider>,
    );

    const panel = await screen.findByTestId('sync-arriving', {}, { timeout: 5000 });
    await waitFor(() => expect(within(panel).getByTestId('sync-arrived-counts').textContent).toBe('1 series, 2 chapters, 2,000 words so far'));
    expect(within(panel).getByRole('link', { name: 'The Salt Roads' }).getAttribute('href')).toBe(`/series?id=${series.id}`);

    rest.resolve();
    await waitFor(() => expect(screen.queryByTestId('sync-arriving')).toBeNull());
  });
});
