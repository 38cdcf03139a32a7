import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROLE_MESSAGES } from '@chronicler/schema';
import { CURRENT_SERIES_KEY } from '@/lib/currentSeries';
import { serverBook, serverCharacter, serverSeries } from '@chronicler/sync-client/testing';
import { serverLocation, serverWorldEntry } from '@/test/fixtures';
import { renderWithDb as renderScreen } from '@/test/renderWithDb';
import { WorldScreen } from '../index';

// Whole flows through dialogs: typing into Mantine inputs under jsdom is slow.
vi.setConfig({ testTimeout: 60_000 });

const dialog = () => screen.getByRole('dialog');
const rowNames = () => screen.queryAllByTestId('world-entry-row').map((r) => r.getAttribute('aria-label'));

describe('World entry tabs', () => {
  it('creates a faction with its fields and links; the name is required with the spec-style message', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const ged = serverCharacter(series.id, { name: 'Ged' });
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith', path: '/world?tab=politics' });
    await db.series.put(series);
    await db.characters.put(ged);
    await db.worldEntries.put(serverWorldEntry(series.id, 'culture', { name: 'Kargs' }));

    expect(await screen.findByText('No Politics Yet')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'New Faction' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Add Faction' }));
    expect(within(dialog()).getByText('Faction name is required')).toBeTruthy();

    await user.type(within(dialog()).getByRole('textbox', { name: 'Name' }), 'The Archipelago League');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Goals' }), 'Keep the *peace*');
    await user.click(within(dialog()).getByRole('combobox', { name: 'Leader' }));
    await user.click(await screen.findByRole('option', { name: 'Ged' }));
    await user.click(within(dialog()).getByRole('combobox', { name: 'Enemies' }));
    await user.click(await screen.findByRole('option', { name: 'Kargs (Culture)' }));
    await user.type(within(dialog()).getByRole('combobox', { name: 'Tags' }), 'islands{Enter}');
    await user.click(within(dialog()).getByRole('button', { name: 'Add Faction' }));

    expect(await screen.findByText('Faction added')).toBeTruthy();
    await waitFor(() => expect(rowNames()).toEqual(['The Archipelago League']));
    const row = (await db.worldEntries.toArray()).find((e) => e.category === 'politics');
    const kargs = (await db.worldEntries.toArray()).find((e) => e.name === 'Kargs')!;
    expect(row).toMatchObject({ name: 'The Archipelago League', goals: 'Keep the *peace*', leaderId: ged.id, enemyIds: [kargs.id], tags: ['islands'] });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'POST', path: '/api/world-entries', body: { category: 'politics', leaderId: ged.id } });
  });

  it('toggles emphasis in a description with Ctrl+I', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith', path: '/world?tab=magic' });
    await db.series.put(series);
    await db.worldEntries.put(serverWorldEntry(series.id, 'magicSystem', { name: 'True names', description: 'Speak the word' }));
    await user.click(await screen.findByRole('button', { name: 'View details of True names' }));
    const description = within(dialog()).getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement;
    description.focus();
    description.setSelectionRange(10, 14);
    await user.keyboard('{Control>}i{/Control}');
    expect(description.value).toBe('Speak the *word*');
  });

  it('searches, sorts and filters by tag and book; "No … Found" with a way back', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith', path: '/world?tab=flora' });
    await db.series.put(series);
    await db.books.put(serverBook(series.id, { title: 'A Wizard of Earthsea', position: 1 }));
    await db.worldEntries.bulkPut([
      serverWorldEntry(series.id, 'floraFauna', { name: 'Otak', summary: 'A small *brown* beast', tags: ['pet'], bookAppearances: [1], createdAt: '2026-01-02T00:00:00.000Z' }),
      serverWorldEntry(series.id, 'floraFauna', { name: 'Dragon', summary: 'Old and wise', danger: 'deadly', tags: ['Beast'], createdAt: '2026-01-03T00:00:00.000Z' }),
      serverWorldEntry(series.id, 'floraFauna', { name: 'Harrekki', summary: 'A tiny dragon', tags: ['beast'], createdAt: '2026-01-01T00:00:00.000Z' }),
      serverWorldEntry(series.id, 'culture', { name: 'Kargs' }),
    ]);
    await waitFor(() => expect(rowNames()).toEqual(['Dragon', 'Harrekki', 'Otak']));
    expect(screen.getByTestId('world-entries-count').textContent).toBe('3 species');
    expect(within(screen.getAllByTestId('world-entry-row')[0]!).getByText('Danger: Deadly')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Search species' }), 'brown');
    await waitFor(() => expect(rowNames()).toEqual(['Otak']));
    expect(screen.getByTestId('world-entries-count').textContent).toBe('1 of 3 species');
    await user.clear(screen.getByRole('searchbox', { name: 'Search species' }));

    await user.click(screen.getByRole('combobox', { name: 'Sort' }));
    await user.click(await screen.findByRole('option', { name: 'Newest first' }));
    await waitFor(() => expect(rowNames()).toEqual(['Dragon', 'Otak', 'Harrekki']));

    await user.click(screen.getByRole('combobox', { name: 'Tag' }));
    // One spelling of a tag, the first met (the oldest entry's).
    await user.click(await screen.findByRole('option', { name: 'beast' }));
    await waitFor(() => expect(rowNames()).toEqual(['Dragon', 'Harrekki']));
    await user.click(screen.getByRole('combobox', { name: 'Book' }));
    await user.click(await screen.findByRole('option', { name: 'Book 1: A Wizard of Earthsea' }));
    expect(await screen.findByText('No Flora & Fauna Found')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show all species' }));
    await waitFor(() => expect(rowNames()).toEqual(['Dragon', 'Otak', 'Harrekki']));
  });

  it('draws 10,000 entries by window: a few dozen rows, the whole count, a quick search', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith', path: '/world?tab=technology' });
    await db.series.put(series);
    await db.worldEntries.bulkPut(Array.from({ length: 10_000 }, (_, i) => serverWorldEntry(series.id, 'technology', { name: `Device ${String(i).padStart(5, '0')}` })));
    await waitFor(() => expect(screen.getByTestId('world-entries-count').textContent).toBe('10,000 technologies'), { timeout: 15_000 });
    expect(screen.getAllByTestId('world-entry-row').length).toBeLessThan(40);
    expect(rowNames()[0]).toBe('Device 00000');
    await user.type(screen.getByRole('searchbox', { name: 'Search technologies' }), '09999');
    await waitFor(() => expect(rowNames()).toEqual(['Device 09999']));
  });

  it('shows a link to a deleted character as removed, and the entries linking here on both sides', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const roke = serverLocation(series.id, { name: 'Roke' });
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith', path: '/world?tab=cultures' });
    await db.series.put(series);
    await db.locations.put(roke);
    const wizards = serverWorldEntry(series.id, 'culture', { name: 'Wizards of Roke', locationIds: [roke.id], characterIds: ['0190a6f0-0000-7000-8000-0000000000ff'] });
    await db.worldEntries.bulkPut([wizards, serverWorldEntry(series.id, 'politics', { name: 'Council', allyIds: [wizards.id] })]);

    await user.click(await screen.findByRole('button', { name: 'View details of Wizards of Roke' }));
    expect(within(dialog()).getAllByText('Removed character').length).toBeGreaterThan(0);
    // The faction that names it as an ally opens in its own tab.
    await user.click(within(dialog()).getByRole('button', { name: 'Council' }));
    expect(await screen.findByRole('heading', { name: 'Edit Faction' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Politics', selected: true })).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));

    // The place's dialog lists the culture that links it.
    await user.click(screen.getByRole('tab', { name: /Locations/ }));
    await user.click(await screen.findByRole('button', { name: 'View details of Roke' }));
    const linked = await within(dialog()).findByTestId('linked-world-entries');
    expect(within(linked).getByRole('link', { name: 'Wizards of Roke' }).getAttribute('href')).toBe(`/world?tab=cultures&entry=${wizards.id}`);
    // Following it opens the culture in its tab, in place of the place's dialog.
    await user.click(within(linked).getByRole('link', { name: 'Wizards of Roke' }));
    expect(await screen.findByRole('heading', { name: 'Edit Culture' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Edit Location' })).toBeNull());
  });
});

describe('World entry tabs: who may change them', () => {
  it('a viewer of a shared series reads entries and their details, with nothing to change', async () => {
    const user = userEvent.setup({ delay: null });
    const other = '0190a6f0-0000-7000-8000-0000000000aa';
    const series = serverSeries({ title: 'Their Saga', ownerId: other });
    window.localStorage.setItem(CURRENT_SERIES_KEY, series.id);
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith', path: '/world?tab=cultures' });
    await db.series.put(series);
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    await db.worldEntries.put(serverWorldEntry(series.id, 'culture', { name: 'Kargs' }));
    await waitFor(() => expect(rowNames()).toEqual(['Kargs']));
    expect((await screen.findByTestId('read-only-notice')).textContent).toContain(ROLE_MESSAGES.readOnly);
    expect(screen.queryByRole('button', { name: 'New Culture' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Kargs' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'View details of Kargs' }));
    expect(await screen.findByText('Culture Details')).toBeTruthy();
    expect((within(dialog()).getByRole('textbox', { name: /Name/ }) as HTMLInputElement).closest('fieldset')!.disabled).toBe(true);
    expect(within(dialog()).queryByRole('button', { name: 'Save Changes' })).toBeNull();
  });

  it("an apprentice's entries from before a downgrade stay readable under the upgrade notice", async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />, { path: '/world?tab=technology' });
    await db.series.put(series);
    await db.worldEntries.put(serverWorldEntry(series.id, 'technology', { name: 'Loom' }));
    await waitFor(() => expect(rowNames()).toEqual(['Loom']));
    const notice = screen.getByTestId('world-upgrade');
    expect(notice.textContent).toContain('Feature Locked');
    expect(within(notice).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    expect(screen.queryByRole('button', { name: 'New Technology' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Loom' })).toBeNull();
  });
});
