/**
 * The companion page and the dashboard panel over a real Dexie database (fake-indexeddb), with
 * `fetch` (the network boundary) stubbed: selectors, generating a suggestion, analysis on the
 * server and on the device, the Refresh lock, and the panel's samples and allowance.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { notifications } from '@mantine/notifications';
import type { AiAllowance, AiSuggestion } from '@chronicler/schema';
import { type ChroniclerDb } from '@chronicler/sync-client';
import { USER_ID, freshDb, serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { ToastRegion } from '@/components/ToastRegion';
import { useSession } from '@/lib/session';
import { SyncTestProvider } from '@/lib/sync';
import { stubFetch } from '@/test/fetch-stub';
import { renderInTheme } from '@/test/render';
import { CompanionScreen } from './CompanionScreen';
import { WritersCompanionPanel } from './WritersCompanionPanel';

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 5_000 });

let db: ChroniclerDb;
const PASSAGE = 'The door was opened by the guard. Mara walked slowly to the window and saw the harbour lights go out one by one.';
const allowance = (remaining: number): AiAllowance => ({ limit: 3, used: 3 - remaining, remaining, day: '2026-03-10', timeZone: 'UTC', modelConfigured: false });

beforeEach(async () => {
  db = freshDb();
  useSession.setState({ status: 'authenticated', user: { id: USER_ID, username: 'ursula', displayName: 'Ursula', email: null, plan: 'apprentice' }, source: 'server' });
});
afterEach(async () => {
  act(() => notifications.clean());
  vi.unstubAllGlobals();
  db.close();
});

async function seed() {
  const series = serverSeries({ title: 'Tides of Salt' });
  const book = serverBook(series.id, { title: 'The Salt Road' });
  const chapter = serverChapter(book, { title: 'Harbour', content: PASSAGE });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  return { series, book, chapter };
}

function render(ui: React.ReactNode) {
  const user = userEvent.setup({ delay: null });
  renderInTheme(
    <>
      <MemoryRouter>
        <SyncTestProvider db={db}>{ui}</SyncTestProvider>
      </MemoryRouter>
      <ToastRegion />
    </>,
  );
  return user;
}

describe('CompanionScreen', () => {
  it('opens on the author’s only series, so its books can be chosen at once', async () => {
    const { series } = await seed();
    stubFetch({ 'GET /api/ai/allowance': { status: 200, body: allowance(3) } });
    render(<CompanionScreen />);
    const seriesSelect = (await screen.findByRole('combobox', { name: 'Series' })) as HTMLInputElement;
    await waitFor(() => expect(seriesSelect.value).toBe(series.title));
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Book' }) as HTMLInputElement).disabled).toBe(false));
  });

  it('keeps the book selector disabled until a series is chosen, and generates a suggestion into the list', async () => {
    const { series, book } = await seed();
    // Two series: a choice to make.
    await db.series.put(serverSeries({ title: 'Another Saga' }));
    const row: AiSuggestion = {
      id: '0190a6f0-0000-7000-8000-0000000000aa', rev: 9, createdAt: '2026-03-10T10:00:00Z', updatedAt: '2026-03-10T10:00:00Z', deletedAt: null,
      seriesId: series.id, bookId: book.id, type: 'conflict', content: 'Mara Vell and Kest Arun are enemies but never share a timeline event.',
      engine: 'builtin', entityIds: [], authorId: USER_ID,
    };
    const { calls } = stubFetch({ 'GET /api/ai/allowance': { status: 200, body: allowance(3) }, 'POST /api/ai/suggestion': { status: 201, body: row } });
    const user = render(<CompanionScreen />);
    const bookSelect = await screen.findByRole('combobox', { name: 'Book' });
    expect((bookSelect as HTMLInputElement).disabled).toBe(true);
    const seriesSelect = screen.getByRole('combobox', { name: 'Series' }) as HTMLInputElement;
    await waitFor(() => expect(seriesSelect.disabled).toBe(false));
    await user.click(seriesSelect);
    await user.click(await screen.findByRole('option', { name: 'Tides of Salt' }));
    await waitFor(() => expect((bookSelect as HTMLInputElement).disabled).toBe(false));
    await user.click(bookSelect);
    await user.click(await screen.findByRole('option', { name: 'The Salt Road' }));
    await user.click(screen.getByRole('combobox', { name: 'Suggestion type' }));
    await user.click(await screen.findByRole('option', { name: 'Conflict' }));
    await user.click(screen.getByRole('button', { name: 'Generate Suggestion' }));
    expect(await screen.findByText(row.content)).toBeTruthy();
    expect(await screen.findByText('New suggestion generated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ seriesId: series.id, bookId: book.id, type: 'conflict' });
    // Stored on the device: it reads offline.
    expect((await db.aiSuggestions.get(row.id))?.content).toBe(row.content);
  });

  it('locks Refresh Suggestions for 1000 ms without calling anything', async () => {
    const { calls } = stubFetch({ 'GET /api/ai/allowance': { status: 200, body: allowance(3) } });
    const user = render(<CompanionScreen />);
    const refresh = (await screen.findByRole('button', { name: 'Refresh Suggestions' })) as HTMLButtonElement;
    await waitFor(() => expect(calls).toHaveLength(1));
    await user.click(refresh);
    expect(refresh.disabled).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    expect(refresh.disabled).toBe(true);
    await waitFor(() => expect(refresh.disabled).toBe(false), { timeout: 3_000 });
    expect(calls).toHaveLength(1);
  });

  it('analyses pasted text on the device when the server cannot be reached, with highlighted findings', async () => {
    stubFetch({ 'GET /api/ai/allowance': 'network-error', 'POST /api/ai/analyze': 'network-error' });
    const user = render(<CompanionScreen />);
    await user.click(await screen.findByRole('tab', { name: 'Analysis' }));
    const area = screen.getByTestId('analysis-text');
    const analyze = screen.getByRole('button', { name: 'Analyze' });
    await user.click(area);
    await user.paste('Too short.');
    expect((analyze as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('analysis-counter').textContent).toContain('10/100');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('Text too short')).toBeTruthy();
    await user.clear(area);
    await user.paste(PASSAGE);
    await user.click(analyze);
    const result = await screen.findByTestId('analysis-result');
    expect(within(result).getByText('Analysed on this device.')).toBeTruthy();
    const marks = [...screen.getByTestId('analysed-text').querySelectorAll('mark[data-kind="passive"]')].map((m) => m.textContent);
    expect(marks).toEqual(['was opened']);
  });

  it('analyses a chosen chapter by itself when the analysis tab is open', async () => {
    const { series } = await seed();
    stubFetch({ 'GET /api/ai/allowance': { status: 200, body: allowance(3) } });
    const user = render(<CompanionScreen initialSeriesId={series.id} />);
    await user.click(await screen.findByRole('tab', { name: 'Analysis' }));
    const chapterSelect = screen.getByRole('combobox', { name: 'Chapter' }) as HTMLInputElement;
    await waitFor(() => expect(chapterSelect.disabled).toBe(false));
    await user.click(chapterSelect);
    await user.click(await screen.findByRole('option', { name: 'Harbour' }));
    expect((await screen.findByTestId('analysis-summary')).textContent).toContain('Flesch reading ease');
  });
});

describe('WritersCompanionPanel', () => {
  it('shows the two built-in samples when the fetch fails, and disables Generate More Insights when the allowance is used up', async () => {
    await seed();
    stubFetch({ 'GET /api/ai/allowance': { status: 200, body: allowance(0) }, 'GET /api/ai/suggestions': { status: 500, body: { message: 'boom' } } });
    render(<WritersCompanionPanel />);
    await waitFor(() => expect(screen.getAllByTestId('suggestion')).toHaveLength(2));
    expect((screen.getByRole('button', { name: 'Generate More Insights' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('panel-allowance').textContent).toContain('Daily limit reached');
  });
});
