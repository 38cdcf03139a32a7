import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, ROLE_MESSAGES, upgradeMessage } from '@chronicler/schema';
import { CURRENT_SERIES_KEY } from '@/lib/currentSeries';
import { serverBook, serverChapter, serverCharacter, serverSeries } from '@chronicler/sync-client/testing';
import { serverEvent } from './model/fixtures';
import { renderWithDb as renderScreen } from '@/test/renderWithDb';
import { TimelineScreen } from './index';

// Whole flows through dialogs: typing into Mantine inputs under jsdom is slow.
vi.setConfig({ testTimeout: 40_000 });

const dialog = () => screen.getByRole('dialog');
const eventTitles = (root: HTMLElement = document.body) => within(root).queryAllByTestId('event-title').map((e) => e.textContent);
const addEventButton = () => screen.getByRole('button', { name: 'Add Event' }) as HTMLButtonElement;

async function pick(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
}

/** A series with two books, characters, a location and events across both books and none. */
async function seedStory(db: ReturnType<typeof renderScreen>['db'], ownerId?: string) {
  const series = serverSeries({ title: 'Middle-earth', ...(ownerId ? { ownerId } : {}) });
  const hobbit = serverBook(series.id, { title: 'The Hobbit', position: 1, status: 'completed', description: 'There and back again' });
  const fellowship = serverBook(series.id, { title: 'The Fellowship', position: 2, status: 'in_progress', description: '' });
  const frodo = serverCharacter(series.id, { name: 'Frodo' });
  const bilbo = serverCharacter(series.id, { name: 'Bilbo' });
  const events = [
    serverEvent(series.id, { title: 'Riddles in the dark', date: 'TA 2941', bookId: hobbit.id, position: 1, characterIds: [bilbo.id] }),
    serverEvent(series.id, { title: 'Battle of Five Armies', date: 'TA 2941 autumn', bookId: hobbit.id, position: 2, importance: 'major', isPlotPoint: true }),
    serverEvent(series.id, { title: 'The long-expected party', date: 'TA 3001', bookId: fellowship.id, position: 1, characterIds: [bilbo.id, frodo.id] }),
    serverEvent(series.id, { title: 'The forging of the Ring', date: '', position: 1, eventType: 'world' }),
  ];
  await db.series.put(series);
  await db.books.bulkPut([hobbit, fellowship]);
  await db.characters.bulkPut([frodo, bilbo]);
  await db.timelineEvents.bulkPut(events);
  return { series, hobbit, fellowship, frodo, bilbo, events };
}

describe('Timeline page', () => {
  it('is locked for an Apprentice: the feature gate with the tier message and an Upgrade link', async () => {
    const { db } = renderScreen(<TimelineScreen />, { plan: 'apprentice' });
    await seedStory(db);
    expect(screen.getByRole('heading', { name: 'Timeline', level: 1 })).toBeTruthy();
    expect(screen.getByText('Chart the chronology of your story')).toBeTruthy();
    expect(await screen.findByText('Feature Locked')).toBeTruthy();
    expect(screen.getByText(upgradeMessage('wordsmith'))).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Series' })).toHaveProperty('value', 'Middle-earth'));
    expect(addEventButton().disabled).toBe(true);
  });

  it('shows a spinner while loading, then "No Series Selected" with Add Event disabled', async () => {
    renderScreen(<TimelineScreen />, { plan: 'wordsmith' });
    expect(screen.getByRole('status', { name: 'Loading timeline' })).toBeTruthy();
    expect(await screen.findByText('No Series Selected')).toBeTruthy();
    expect(addEventButton().disabled).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Series' }).getAttribute('placeholder')).toBe('Select series');
  });

  it('"No Timeline Events" → Add First Event; the title is required; an event is created with every field', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const book = serverBook(series.id, { title: 'A Wizard of Earthsea', position: 1 });
    const chapter = serverChapter(book, { title: 'Warriors in the Mist' });
    const ged = serverCharacter(series.id, { name: 'Ged' });
    const vetch = serverCharacter(series.id, { name: 'Vetch' });
    const { db } = renderScreen(<TimelineScreen />, { plan: 'wordsmith' });
    await db.series.put(series);
    await db.books.put(book);
    await db.chapters.put(chapter);
    await db.characters.bulkPut([ged, vetch]);
    await db.locations.put({
      id: '0190a6f0-0000-7000-8000-0000000000aa',
      rev: 1,
      createdAt: '',
      updatedAt: '',
      deletedAt: null,
      seriesId: series.id,
      name: 'Roke',
      locationType: 'island',
      description: '',
      importance: 'main',
      bookAppearances: [],
      image: null,
      alwaysInclude: false,
      parentId: null,
    });

    expect(await screen.findByText('No Timeline Events')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add First Event' }));
    expect(within(dialog()).getByRole('combobox', { name: 'Event type' })).toHaveProperty('value', 'Plot');
    expect(within(dialog()).getByRole('combobox', { name: 'Importance' })).toHaveProperty('value', 'Medium');
    expect(within(dialog()).getByRole('textbox', { name: 'Colour' })).toHaveProperty('value', '#6366f1');
    expect(within(dialog()).getByRole('combobox', { name: 'Chapter' })).toHaveProperty('disabled', true);

    await user.click(within(dialog()).getByRole('button', { name: 'Create Event' }));
    expect(within(dialog()).getByText(MESSAGES.timeline.titleRequired)).toBeTruthy();
    expect(await db.timelineEvents.count()).toBe(0);

    await user.type(within(dialog()).getByRole('textbox', { name: 'Title' }), 'The shadow is loosed');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Date' }), 'Year 1012');
    await pick(user, within(dialog()).getByRole('combobox', { name: 'Event type' }), 'Character');
    await pick(user, within(dialog()).getByRole('combobox', { name: 'Book' }), 'Book 1: A Wizard of Earthsea');
    await pick(user, within(dialog()).getByRole('combobox', { name: 'Chapter' }), 'Warriors in the Mist');
    await pick(user, within(dialog()).getByRole('combobox', { name: 'Characters' }), 'Ged');
    await pick(user, within(dialog()).getByRole('combobox', { name: 'Location' }), 'Roke');
    await pick(user, within(dialog()).getByRole('combobox', { name: 'Importance' }), 'Major');
    await user.click(within(dialog()).getByRole('switch', { name: /Plot point/ }));
    await user.click(within(dialog()).getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Event created successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = await screen.findByTestId('timeline-event');
    expect(within(card).getByTestId('event-title').textContent).toBe('The shadow is loosed');
    expect(within(card).getByTestId('event-date').textContent).toBe('Year 1012');
    expect(within(card).getByTestId('event-importance').textContent).toBe('Major');
    expect(within(card).getByTestId('event-type').textContent).toBe('Character');
    expect(within(card).getByText('Plot Point')).toBeTruthy();
    expect(within(card).getByText('A Wizard of Earthsea · Warriors in the Mist')).toBeTruthy();
    expect(within(card).getByText('Roke')).toBeTruthy();
    expect(within(card).getByText('Ged')).toBeTruthy();

    const [row] = await db.timelineEvents.toArray();
    expect(row).toMatchObject({
      seriesId: series.id,
      title: 'The shadow is loosed',
      date: 'Year 1012',
      eventType: 'character',
      bookId: book.id,
      chapterId: chapter.id,
      characterIds: [ged.id],
      locationId: '0190a6f0-0000-7000-8000-0000000000aa',
      importance: 'major',
      color: '#6366f1',
      isPlotPoint: true,
      position: 1,
    });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'POST', path: '/api/timeline-events' });
  });

  it('Era order: the author puts the Age of Ash before the First Age; the chronological view follows and the order is kept on the series', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderScreen(<TimelineScreen />, { plan: 'wordsmith' });
    const series = serverSeries({ title: 'Ages' });
    const book = serverBook(series.id, { title: 'One', position: 1 });
    await db.series.put(series);
    await db.books.put(book);
    await db.timelineEvents.bulkPut([
      serverEvent(series.id, { title: 'The crowning', date: 'First Age 12', bookId: book.id, position: 1 }),
      serverEvent(series.id, { title: 'The burning', date: 'Age of Ash 3', bookId: book.id, position: 2 }),
    ]);
    await waitFor(() => expect(eventTitles()).toEqual(['The crowning', 'The burning']));

    await user.click(screen.getByRole('button', { name: 'Era order' }));
    const eras = within(dialog()).getAllByTestId('era');
    expect(eras.map((era) => era.textContent)).toEqual(['1. First Age', '2. Age of Ash']);
    expect((within(dialog()).getByRole('button', { name: 'Move First Age earlier' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog()).getByRole('button', { name: 'Move Age of Ash earlier' }));
    expect(within(dialog()).getAllByTestId('era').map((era) => era.textContent)).toEqual(['1. Age of Ash', '2. First Age']);
    expect(within(dialog()).getByRole('status').textContent).toBe('Age of Ash moved to position 1 of 2');
    await user.click(within(dialog()).getByRole('button', { name: 'Save order' }));

    expect(await screen.findByText('Era order saved')).toBeTruthy();
    await waitFor(() => expect(eventTitles()).toEqual(['The burning', 'The crowning']));
    expect((await db.series.get(series.id))!.eraOrder).toEqual(['age ash', 'age#1']);

    // Back to the story's order.
    await user.click(screen.getByRole('button', { name: 'Era order' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Use the story’s order' }));
    await waitFor(() => expect(eventTitles()).toEqual(['The crowning', 'The burning']));
    expect((await db.series.get(series.id))!.eraOrder).toEqual([]);
  });

  it('switches the three views: chronological (Undated first), narrative (by book, General Events last), character-based', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderScreen(<TimelineScreen />, { plan: 'wordsmith' });
    await seedStory(db);

    // Chronological: the dates in the author's order, an undated event of no book first, drawn with the date on the left.
    await waitFor(() =>
      expect(eventTitles()).toEqual(['The forging of the Ring', 'Riddles in the dark', 'Battle of Five Armies', 'The long-expected party']),
    );
    expect(screen.getAllByTestId('line-date').map((d) => d.textContent)).toEqual(['Undated', 'TA 2941', 'TA 2941 autumn', 'TA 3001']);
    // The drag help shows only where dragging applies.
    expect(screen.queryByText('Timeline Drag & Drop Enabled')).toBeNull();
    expect(screen.queryByTestId('event-drag-handle')).toBeNull();

    // Narrative: grouped by book, each group sorted by position, General Events last, with drag handles.
    await user.click(screen.getByRole('tab', { name: 'Narrative' }));
    const groups = await screen.findAllByTestId('narrative-group');
    expect(groups.map((g) => within(g).getAllByRole('heading')[0]!.textContent)).toEqual([
      'Book 1: The Hobbit',
      'Book 2: The Fellowship',
      'General Events',
    ]);
    expect(eventTitles(groups[0])).toEqual(['Riddles in the dark', 'Battle of Five Armies']);
    expect(eventTitles(groups[2])).toEqual(['The forging of the Ring']);
    const hobbitCard = within(groups[0]!).getByTestId('group-book');
    expect(within(hobbitCard).getByText('There and back again')).toBeTruthy();
    expect(within(hobbitCard).getByText('Completed')).toBeTruthy();
    const fellowshipCard = within(groups[1]!).getByTestId('group-book');
    expect(within(fellowshipCard).getByText('No description provided')).toBeTruthy();
    expect(within(fellowshipCard).getByText('In Progress')).toBeTruthy();
    expect(within(groups[0]!).getAllByRole('button', { name: /^Reorder event/ })).toHaveLength(2);

    // Character-Based: all events until a character is chosen, then only theirs.
    await user.click(screen.getByRole('tab', { name: 'Character-Based' }));
    const selector = await screen.findByRole('combobox', { name: 'Character' });
    expect(selector.getAttribute('placeholder')).toBe('Select character');
    expect(eventTitles()).toHaveLength(4);
    await pick(user, selector, 'Frodo');
    await waitFor(() => expect(eventTitles()).toEqual(['The long-expected party']));
    await pick(user, selector, 'Bilbo');
    await waitFor(() => expect(eventTitles()).toEqual(['Riddles in the dark', 'The long-expected party']));
    await pick(user, selector, 'All Characters');
    await waitFor(() => expect(eventTitles()).toHaveLength(4));
  });

  it('changing the series resets the chosen character', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderScreen(<TimelineScreen />, { plan: 'wordsmith' });
    const { series } = await seedStory(db);
    const other = serverSeries({ title: 'Earthsea', createdAt: '2026-02-01T00:00:00.000Z' });
    await db.series.put(other);
    await db.timelineEvents.put(serverEvent(other.id, { title: 'Ged leaves Gont' }));
    window.localStorage.setItem(CURRENT_SERIES_KEY, series.id);

    await user.click(await screen.findByRole('tab', { name: 'Character-Based' }));
    await pick(user, await screen.findByRole('combobox', { name: 'Character' }), 'Frodo');
    await waitFor(() => expect(eventTitles()).toEqual(['The long-expected party']));

    await pick(user, screen.getByRole('combobox', { name: 'Series' }), 'Earthsea');
    await waitFor(() => expect(eventTitles()).toEqual(['Ged leaves Gont']));
    expect(screen.getByRole('combobox', { name: 'Character' })).toHaveProperty('value', '');
    await pick(user, screen.getByRole('combobox', { name: 'Series' }), 'Middle-earth');
    await waitFor(() => expect(eventTitles()).toHaveLength(4));
  });

  it('edits an event and deletes one after the spec confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderScreen(<TimelineScreen />, { plan: 'wordsmith' });
    const { events } = await seedStory(db);
    const riddles = events[0]!;

    await user.click(await screen.findByRole('button', { name: 'Edit Riddles in the dark' }));
    expect(within(dialog()).getByRole('heading', { name: 'Edit Event' })).toBeTruthy();
    const title = within(dialog()).getByRole('textbox', { name: 'Title' });
    expect(title).toHaveProperty('value', 'Riddles in the dark');
    await user.clear(title);
    await user.click(within(dialog()).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog()).getByText('Title is required')).toBeTruthy();
    await user.type(title, 'Riddles under the mountain');
    await user.click(within(dialog()).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Event updated successfully')).toBeTruthy();
    await waitFor(async () => expect((await db.timelineEvents.get(riddles.id))!.title).toBe('Riddles under the mountain'));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'PUT', path: `/api/timeline-events/${riddles.id}`, body: { title: 'Riddles under the mountain' } });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Delete The forging of the Ring' }));
    expect(within(dialog()).getByText(MESSAGES.confirm.deleteTimelineEvent)).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Event deleted')).toBeTruthy();
    expect(screen.getByText('The timeline event has been removed.')).toBeTruthy();
    await waitFor(() => expect(eventTitles()).not.toContain('The forging of the Ring'));
  });
});

describe('Timeline page: a viewer of a shared series', () => {
  it('reads the events with the read-only notice: no adding, editing, deleting or dragging, until the role becomes editor', async () => {
    const other = '0190a6f0-0000-7000-8000-0000000000aa';
    const { db } = renderScreen(<TimelineScreen />, { plan: 'wordsmith' });
    const { series } = await seedStory(db, other);
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    await waitFor(() => expect(eventTitles()).toContain('Riddles in the dark'));
    expect((await screen.findByTestId('read-only-notice')).textContent).toContain(ROLE_MESSAGES.readOnly);
    expect(screen.queryByRole('button', { name: 'Add Event' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Riddles in the dark' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Riddles in the dark' })).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('tab', { name: 'Narrative' }));
    await waitFor(() => expect(screen.getAllByTestId('book-event').length).toBeGreaterThan(0));
    expect(screen.queryAllByTestId('event-drag-handle')).toEqual([]);

    await db.seriesRoles.put({ seriesId: series.id, role: 'editor', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    expect(await screen.findByRole('button', { name: 'Edit Riddles in the dark' })).toBeTruthy();
    expect(screen.getAllByTestId('event-drag-handle').length).toBeGreaterThan(0);
    expect(addEventButton().disabled).toBe(false);
    expect(screen.queryByTestId('read-only-notice')).toBeNull();
  });
});
