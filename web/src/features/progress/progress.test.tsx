import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type UserAchievement, type WritingStat, addDays, newId, writingDay } from '@chronicler/schema';
import { freshDb, serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { userAchievementsTable, writingSettingsTable, writingStatsTable, type ChroniclerDb } from '@chronicler/sync-client';
import { localCarets, rememberCaret } from '@/lib/caretMemory';
import { CARETS_KEY } from '@/lib/caretMemoryKey';
import { stubFetch } from '@/test/fetch-stub';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { AchievementsScreen } from './AchievementsScreen';
import { CurrentBookPanel } from './components/ProjectPanels';
import { DashboardScreen, type DashboardScreenProps } from './DashboardScreen';
import { browserTimeZone } from './model/figures';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const slots: DashboardScreenProps = {
  renderEditSeries: (series) => (series ? <div role="dialog">Editing {series.title}</div> : null),
  renderChapterList: (_book, chapters) => (
    <ol data-testid="chapter-list">
      {chapters.map((c) => (
        <li key={c.id}>{c.title}</li>
      ))}
    </ol>
  ),
  chapterPath: (c) => `/chapter-editor?id=${c.id}`,
  bookPath: (b) => `/chapter-editor?bookId=${b.id}`,
};

const today = () => writingDay(new Date(), browserTimeZone());

function stat(day: string, wordsWritten: number): WritingStat {
  return { id: newId(), rev: 1, createdAt: '', updatedAt: '', deletedAt: null, userId: USER_ID, day, wordsWritten, wordsRemoved: 0, wordsPasted: 0, edits: 1 };
}
function earned(achievementId: string, earnedAt: string): UserAchievement {
  return { id: newId(), rev: 1, createdAt: earnedAt, updatedAt: earnedAt, deletedAt: null, userId: USER_ID, achievementId, earnedAt };
}

async function seedSeries(db: ChroniclerDb) {
  const series = serverSeries({ title: 'Earthsea', currentBook: 1, totalBooks: 3 });
  const book = serverBook(series.id, { title: 'A Wizard', position: 1 });
  const older = serverChapter(book, { title: 'The Warriors in the Mist', position: 1, updatedAt: '2026-01-01T00:00:00.000Z' });
  const newer = serverChapter(book, { title: 'The Shadow', position: 2, updatedAt: '2026-02-01T00:00:00.000Z' });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.bulkPut([older, newer]);
  return { series, book, older, newer };
}

describe('Dashboard', () => {
  it('greets the author; with no series, Start Writing and the pencil say "No active series"', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithDb(<DashboardScreen {...slots} />);
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ursula', level: 1 })).toBeTruthy();
    expect(screen.getByText('Your writing journey continues today')).toBeTruthy();
    expect(await screen.findByText('Create New Series')).toBeTruthy();
    expect(screen.getAllByText('No active series selected').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Start Writing' }));
    expect(await screen.findByText('No active series')).toBeTruthy();
    // The second column is drawn last (after the first screenful has been presented); until then
    // it shows that it is coming.
    expect(screen.queryByTestId('dashboard-second-column') ?? screen.getByTestId('dashboard-second-column-pending')).toBeTruthy();
    expect((await screen.findByTestId('companion-frame')).textContent).toContain("Writer's Companion");
    expect(screen.queryByTestId('dashboard-second-column-pending')).toBeNull();
    // Apprentice: no 30-day view, no daily goal (Wordsmith features).
    expect(screen.queryByTestId('thirty-days')).toBeNull();
    expect(screen.queryByTestId('daily-goal')).toBeNull();
  });

  it('Words Today and the trend come from the statistics plus words still in the outbox; the streak is computed', async () => {
    const { db } = renderWithDb(<DashboardScreen {...slots} />);
    const { newer } = await seedSeries(db);
    const t = today();
    await writingStatsTable(db).bulkPut([stat(t, 150), stat(addDays(t, -1), 100), stat(addDays(t, -2), 40)]);
    await waitFor(() => expect(screen.getByTestId('words-today-value').textContent).toBe('150'));
    expect(screen.getByTestId('words-today-trend').textContent).toBe('+50 (+50%) from yesterday');
    expect(screen.getByTestId('current-streak-value').textContent).toBe('3 days');
    expect(within(screen.getByTestId('streak-bar')).getAllByRole('listitem')).toHaveLength(7);

    // Typing (offline or not): the save sits in the outbox and Words Today rises at once.
    const { createMutators } = await import('@chronicler/sync-client');
    await createMutators(db).chapters.update(newer.id, { content: `${newer.content} and twelve more words were written here in the quiet evening light` });
    await waitFor(() => expect(screen.getByTestId('words-today-value').textContent).toBe('162'));
  });

  it('Start Writing opens the chapter last worked on in the current book with "Ready to write"', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderWithDb(<DashboardScreen {...slots} />);
    const { newer } = await seedSeries(db);
    expect(await screen.findByText('The Warriors in the Mist')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Start Writing' }));
    expect(await screen.findByText('Ready to write')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/chapter-editor?id=${newer.id}`));
  });

  it('Start Writing opens the chapter the author last wrote in on this device, in any book of the series', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderWithDb(<DashboardScreen {...slots} />);
    const { series, older } = await seedSeries(db);
    expect(await screen.findByText('The Warriors in the Mist')).toBeTruthy();
    // A later book's chapter changed since (a collaborator, a sync), but the author last wrote in the older one.
    const sequel = serverBook(series.id, { title: 'The Tombs', position: 2 });
    await db.books.put(sequel);
    await db.chapters.put(serverChapter(sequel, { title: 'The Labyrinth', position: 1, updatedAt: '2026-03-01T00:00:00.000Z' }));
    rememberCaret(localCarets, older.id, { anchor: 3, head: 3 }, Date.now());
    await user.click(screen.getByRole('button', { name: 'Start Writing' }));
    expect(await screen.findByText('Ready to write')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/chapter-editor?id=${older.id}`));
    localStorage.removeItem(CARETS_KEY);
  });

  it('adds a chapter at count + 1 and ignores a blank title', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderWithDb(<DashboardScreen {...slots} />);
    const { book } = await seedSeries(db);
    const input = await screen.findByRole('textbox', { name: 'New chapter title' });
    await user.type(input, '   ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await db.chapters.count()).toBe(2);
    await user.type(input, 'The Loosing of the Shadow');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Chapter added')).toBeTruthy();
    const added = (await db.chapters.where('bookId').equals(book.id).toArray()).find((c) => c.title === 'The Loosing of the Shadow');
    expect(added).toMatchObject({ position: 3, wordCount: 0, status: 'in_progress' });
  });

  it('puts a new chapter after the ones in the database, even when the drawn list is behind (two quick adds)', async () => {
    const user = userEvent.setup({ delay: null });
    const db = freshDb();
    const { series, book } = await seedSeries(db);
    // The list as drawn before the last add reached it: empty, where the database has two chapters.
    renderWithDb(<CurrentBookPanel series={series} book={book} chapters={[]} renderChapterList={() => null} />, { db });
    await user.type(await screen.findByRole('textbox', { name: 'New chapter title' }), 'The Loosing of the Shadow');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Chapter added')).toBeTruthy();
    const added = (await db.chapters.where('bookId').equals(book.id).toArray()).find((c) => c.title === 'The Loosing of the Shadow');
    expect(added?.position).toBe(3);
  });

  it('Recent Achievements: three in full with NEW within 24 hours, four small, +N beyond seven; My Badges shows 8 and +N', async () => {
    const { db } = renderWithDb(<DashboardScreen {...slots} />);
    const ids = ['chapters-1', 'chapters-5', 'words-1000', 'streak-3', 'characters-1', 'locations-1', 'books-1', 'characters-5', 'locations-5'];
    const now = Date.now();
    await userAchievementsTable(db).bulkPut(ids.map((id, i) => earned(id, new Date(now - i * 20 * 3600_000).toISOString())));
    const recent = await screen.findByTestId('recent-achievements');
    await waitFor(() => expect(within(recent).getAllByTestId('recent-achievement')).toHaveLength(3));
    expect(within(recent).getAllByTestId('new-tag')).toHaveLength(2); // 0 h and 20 h ago; 40 h is not new
    expect(within(recent).getByTestId('badge-overflow').textContent).toBe('+2');
    expect(within(screen.getByTestId('my-badges')).getByTestId('badge-overflow').textContent).toBe('+1');
    expect(within(screen.getByTestId('my-badges')).getByTestId('latest-badge').textContent).toContain('First Chapter');
    const chapters = screen.getByTestId('progression-chapters');
    expect(chapters.textContent).toContain('2/6');
    expect(within(screen.getByTestId('your-badges')).getAllByLabelText(/./).length).toBeLessThanOrEqual(6);
  });

  it('streak settings (rest days, day end, freezes) are saved on the server and kept on the device', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = stubFetch({
      'PUT /api/writing-settings': async (init) => ({
        status: 200,
        body: { id: USER_ID, rev: 9, createdAt: '', updatedAt: '', deletedAt: null, userId: USER_ID, dayEndHour: 4, restDays: [], freezesPerMonth: 2, dailyGoal: null, ...JSON.parse(String(init?.body)) },
      }),
    });
    const { db } = renderWithDb(<DashboardScreen {...slots} />);
    const panel = await screen.findByTestId('streak-settings');
    await user.click(within(panel).getByRole('checkbox', { name: 'Sun' }));
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Streak settings saved')).toBeTruthy();
    expect(calls[0]!.body).toEqual({ dayEndHour: 4, restDays: [0], freezesPerMonth: 2 });
    expect(await writingSettingsTable(db).get(USER_ID)).toMatchObject({ restDays: [0], rev: 9 });
  });

  it('Wordsmith sees the 30-day view and the daily goal', async () => {
    renderWithDb(<DashboardScreen {...slots} />, { plan: 'wordsmith' });
    expect(await screen.findByTestId('thirty-days')).toBeTruthy();
    expect(within(screen.getByTestId('thirty-days')).getAllByRole('listitem')).toHaveLength(30);
    // The forms follow the 30-day view, after it has painted.
    expect(await screen.findByTestId('daily-goal')).toBeTruthy();
  });
});

describe('Achievements', () => {
  it('summarises, filters by tab with the spec’s card texts and empty states', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderWithDb(<AchievementsScreen />, { path: '/achievements' });
    expect(await screen.findByRole('heading', { name: 'Achievements', level: 1 })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('summary-latest').textContent).toContain('None'));
    await user.click(screen.getByRole('tab', { name: 'Earned' }));
    expect(await screen.findByText('No Achievements Earned Yet')).toBeTruthy();

    await userAchievementsTable(db).put(earned('chapters-1', '2026-11-20T10:00:00.000Z'));
    const list = await screen.findByTestId('achievements-earned');
    expect(within(list).getByText('First Chapter')).toBeTruthy();
    expect(within(list).getByText('Earned on November 20, 2026')).toBeTruthy();
    expect(screen.getByTestId('summary-earned').textContent).toContain('1');
    await user.click(screen.getByRole('tab', { name: 'Available' }));
    expect(await screen.findByText('Target: 1,000 words')).toBeTruthy();
    expect(screen.getByTestId('category-chapters').textContent).toContain('1/6');
  });

  it('Check for New Achievements: "New achievements earned!" with the count, keeps the rows; failures get the spec’s toast', async () => {
    const user = userEvent.setup({ delay: null });
    const row = earned('words-1000', new Date().toISOString());
    stubFetch({ 'POST /api/check-achievements': { status: 200, body: [{ ...row, achievement: { id: 'words-1000' } }] } });
    const { db } = renderWithDb(<AchievementsScreen />, { path: '/achievements' });
    await user.click(await screen.findByRole('button', { name: 'Check for New Achievements' }));
    expect(await screen.findByText('New achievements earned!')).toBeTruthy();
    expect(await userAchievementsTable(db).get(row.id)).toMatchObject({ achievementId: 'words-1000' });

    stubFetch({ 'POST /api/check-achievements': { status: 200, body: [] } });
    await user.click(screen.getByRole('button', { name: 'Check for New Achievements' }));
    expect(await screen.findByText('No new achievements')).toBeTruthy();

    stubFetch({ 'POST /api/check-achievements': { status: 500, body: { message: 'boom', code: 'INTERNAL' } } });
    await user.click(screen.getByRole('button', { name: 'Check for New Achievements' }));
    expect(await screen.findByText('Error checking achievements')).toBeTruthy();
  });
});
