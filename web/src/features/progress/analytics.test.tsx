import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type WritingActivity, type WritingStat, addDays, compactActivity, newId, upgradeMessage, writingDay } from '@chronicler/schema';
import { serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { type ChroniclerDb, writingStatsTable } from '@chronicler/sync-client';
import { WRITING_ACTIVITY_KEY, forgetWritingActivity, storeWritingActivity } from '@/lib/writingActivityCache';
import { stubFetch } from '@/test/fetch-stub';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { AnalyticsScreen } from './AnalyticsScreen';
import { browserTimeZone } from './model/figures';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => {
  window.localStorage.removeItem(WRITING_ACTIVITY_KEY);
  forgetWritingActivity();
});
afterEach(() => vi.unstubAllGlobals());

const today = () => writingDay(new Date(), browserTimeZone());

function stat(day: string, wordsWritten: number): WritingStat {
  return { id: newId(), rev: 1, createdAt: '', updatedAt: '', deletedAt: null, userId: USER_ID, day, wordsWritten, wordsRemoved: 0, wordsPasted: 0, edits: 1 };
}

async function seed(db: ChroniclerDb) {
  const series = serverSeries({ title: 'Earthsea' });
  const book = serverBook(series.id, { title: 'A Wizard', position: 1 });
  const chapter = serverChapter(book, { title: 'The Shadow', position: 1 });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  const t = today();
  // Three days running, a gap, then two: the longest streak is 3 (no freezes in this author's rules).
  await writingStatsTable(db).bulkPut([stat(t, 300), stat(addDays(t, -1), 200), stat(addDays(t, -5), 500), stat(addDays(t, -6), 400), stat(addDays(t, -7), 100)]);
  await db.table('writingSettings').put({ id: USER_ID, rev: 1, createdAt: '', updatedAt: '', deletedAt: null, userId: USER_ID, dayEndHour: 4, restDays: [], freezesPerMonth: 0, dailyGoal: null });
  const hourAgo = Date.now() - 60 * 60_000;
  const activity: WritingActivity[] = [
    { at: new Date(hourAgo).toISOString(), chapterId: chapter.id, seriesId: series.id, words: 200 },
    { at: new Date(hourAgo + 20 * 60_000).toISOString(), chapterId: chapter.id, seriesId: series.id, words: 100 },
  ];
  return { series, book, chapter, activity };
}

describe('Analytics', () => {
  it('shows the author’s figures, with every chart’s figures as a table for screen readers', async () => {
    const user = userEvent.setup({ delay: null });
    let answer: unknown = { chapters: [], minutes: [] };
    const { calls } = stubFetch({ 'GET /api/writing-activity': async () => ({ status: 200, body: answer }) });
    const { db } = renderWithDb(<AnalyticsScreen />, { plan: 'wordsmith', path: '/analytics' });
    const { activity } = await seed(db);
    answer = compactActivity(activity);
    expect(await screen.findByRole('heading', { name: 'Analytics', level: 1 })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('stat-total-words').textContent).toContain('1,500'));
    expect(screen.getByTestId('stat-longest-streak').textContent).toContain('3 days');
    expect(screen.getByTestId('stat-current-streak').textContent).toContain('2 days');
    expect(screen.getByTestId('stat-best-day').textContent).toContain('500 words');

    // The words-over-time table is in the page for screen readers (visually hidden), day by day.
    const overTime = screen.getByTestId('words-over-time');
    const table = within(overTime).getByRole('table', { name: /Words per day, the last 30 days/ });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(overTime).getByText('1,500 words in the last 30 days.')).toBeTruthy();
    await user.click(within(overTime).getByRole('radio', { name: 'Months' }));
    expect(within(overTime).getByRole('table', { name: /Words per month, the last 12 months/ })).toBeTruthy();

    // Sessions and books come from the saves (fetched once here; a remount would refetch).
    expect(calls.filter((c) => c.path === '/api/writing-activity').length).toBeGreaterThan(0);
  });

  it('time of day, sessions and books from the saves; a panel shows its table on request', async () => {
    const user = userEvent.setup({ delay: null });
    const db = (await import('@chronicler/sync-client/testing')).freshDb();
    const { activity } = await seed(db);
    stubFetch({ 'GET /api/writing-activity': { status: 200, body: compactActivity(activity) } });
    renderWithDb(<AnalyticsScreen />, { plan: 'wordsmith', path: '/analytics', db });
    const sessions = await screen.findByTestId('sessions');
    expect(sessions.textContent).toContain('1 session; a typical one lasts 20 min, the longest 20 min');
    const byBook = screen.getByTestId('by-book');
    expect(within(byBook).getByRole('table').textContent).toContain('A Wizard (Earthsea)');
    expect(within(byBook).getByRole('table').textContent).toContain('300');
    const timeOfDay = screen.getByTestId('time-of-day');
    expect(within(timeOfDay).getAllByRole('row')).toHaveLength(25);
    await user.click(within(timeOfDay).getByRole('button', { name: 'Show table' }));
    expect(within(timeOfDay).getByRole('button', { name: 'Show chart' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('offline: the day figures are current, the rest from the last answer kept on this device', async () => {
    const db = (await import('@chronicler/sync-client/testing')).freshDb();
    const { activity } = await seed(db);
    storeWritingActivity({ userId: USER_ID, fetchedAt: Date.parse('2026-11-20T10:00:00Z'), answer: compactActivity(activity) });
    stubFetch({ 'GET /api/writing-activity': 'network-error' });
    renderWithDb(<AnalyticsScreen />, { plan: 'wordsmith', path: '/analytics', db });
    expect((await screen.findByTestId('analytics-offline')).textContent).toContain('as of Nov 20, 2026');
    expect((await screen.findByTestId('by-book')).textContent).toContain('A Wizard (Earthsea)');
  });

  it('offline on a device that never had the saves: says what fills in once connected', async () => {
    const db = (await import('@chronicler/sync-client/testing')).freshDb();
    await seed(db);
    stubFetch({ 'GET /api/writing-activity': 'network-error' });
    renderWithDb(<AnalyticsScreen />, { plan: 'wordsmith', path: '/analytics', db });
    expect(await screen.findByTestId('analytics-offline')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Sessions' }).textContent).toContain('Connect to the internet once');
    expect(screen.getByTestId('stat-total-words').textContent).toContain('1,500');
  });

  it('a refused request says why and offers to try again', async () => {
    const user = userEvent.setup({ delay: null });
    const db = (await import('@chronicler/sync-client/testing')).freshDb();
    await seed(db);
    const { calls } = stubFetch({ 'GET /api/writing-activity': { status: 429, body: { message: 'Too many requests. Wait a moment.', code: 'RATE_LIMITED' } } });
    renderWithDb(<AnalyticsScreen />, { plan: 'wordsmith', path: '/analytics', db });
    const alert = await screen.findByTestId('analytics-error');
    expect(alert.textContent).toContain('Too many requests. Wait a moment.');
    const before = calls.length;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.length).toBe(before + 1));
  });

  it('a new author sees an invitation to write, not empty charts', async () => {
    stubFetch({ 'GET /api/writing-activity': { status: 200, body: { chapters: [], minutes: [] } } });
    renderWithDb(<AnalyticsScreen />, { plan: 'wordsmith', path: '/analytics' });
    const empty = await screen.findByTestId('analytics-empty');
    expect(within(empty).getByText('No writing yet')).toBeTruthy();
    expect(within(empty).getByRole('link', { name: 'Start Writing' }).getAttribute('href')).toBe('/series');
  });

  it('a plan without analytics sees a sample of the page under the upgrade prompt, and asks the server nothing', async () => {
    const { calls } = stubFetch({});
    renderWithDb(<AnalyticsScreen />, { plan: 'apprentice', path: '/analytics' });
    const locked = await screen.findByTestId('analytics-locked');
    expect(within(locked).getByText('Feature Locked')).toBeTruthy();
    expect(within(locked).getByText(upgradeMessage('wordsmith'))).toBeTruthy();
    expect(within(locked).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    // The sample is drawn (dimmed, out of reach) — never an empty screen.
    expect(locked.querySelector('[data-testid="words-over-time"]')).not.toBeNull();
    expect(calls).toEqual([]);
  });
});
