import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, ROLE_MESSAGES } from '@chronicler/schema';
import { CURRENT_SERIES_KEY } from '@/lib/currentSeries';
import { serverBook, serverSeries } from '@chronicler/sync-client/testing';
import { serverLocation } from '@/test/fixtures';
import { renderWithDb as renderScreen } from '@/test/renderWithDb';
import { WorldScreen } from './index';

// Whole flows through dialogs: typing into Mantine inputs under jsdom is slow.
vi.setConfig({ testTimeout: 30_000 });

const dialog = () => screen.getByRole('dialog');
const cardNames = () => screen.queryAllByTestId('location-card').map((c) => within(c).getByRole('heading').textContent);

describe('World Building page', () => {
  it('says "No Series Selected" when the author has no series, with a way to create one', async () => {
    renderScreen(<WorldScreen />);
    expect(await screen.findByText('No Series Selected')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create a series' }).getAttribute('href')).toBe('/series');
    expect((screen.getByRole('button', { name: 'New Element' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the remembered current series; the search narrows the cards; "No Locations Found" when nothing matches', async () => {
    const user = userEvent.setup({ delay: null });
    const first = serverSeries({ title: 'Earthsea', createdAt: '2026-01-01T00:00:00.000Z' });
    const second = serverSeries({ title: 'Middle-earth', createdAt: '2026-01-02T00:00:00.000Z' });
    window.localStorage.setItem(CURRENT_SERIES_KEY, second.id);
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith' });
    await db.series.bulkPut([first, second]);
    await db.locations.bulkPut([
      serverLocation(first.id, { name: 'Gont' }),
      serverLocation(second.id, { name: 'Rivendell', locationType: 'village', bookAppearances: [1, 3] }),
      serverLocation(second.id, { name: 'Moria', locationType: 'cave', importance: 'main', description: 'Dwarf halls' }),
    ]);

    await waitFor(() => expect(cardNames()).toEqual(['Moria', 'Rivendell']));
    const rivendell = screen.getAllByTestId('location-card')[1]!;
    expect(within(rivendell).getByText('Village')).toBeTruthy();
    expect(within(rivendell).getByText('Secondary')).toBeTruthy();
    expect(within(rivendell).getByTestId('location-appearances').textContent).toBe('Books 1, 3');

    await user.type(screen.getByRole('searchbox', { name: 'Search locations' }), 'dwarf');
    await waitFor(() => expect(cardNames()).toEqual(['Moria']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search locations' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search locations' }), 'mordor');
    expect(await screen.findByText('No Locations Found')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show all locations' }));
    await waitFor(() => expect(cardNames()).toEqual(['Moria', 'Rivendell']));

    // Another series from the selector shows its own locations.
    await user.click(screen.getByRole('combobox', { name: 'Series' }));
    await user.click(await screen.findByRole('option', { name: 'Earthsea' }));
    await waitFor(() => expect(cardNames()).toEqual(['Gont']));
  });

  it('New Element creates a location with every field: the name is required, the defaults are general and secondary', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />);
    await db.series.put(series);
    // A trilogy: three boxes, its own books by title.
    await db.books.bulkPut(['A Wizard of Earthsea', 'The Tombs of Atuan', 'The Farthest Shore'].map((title, i) => serverBook(series.id, { title, position: i + 1 })));
    expect(await screen.findByText('No Locations Found')).toBeTruthy();

    await user.click(screen.getAllByRole('button', { name: 'New Element' })[0]!);
    expect(within(dialog()).getByRole('combobox', { name: 'Location type' })).toHaveProperty('value', 'General');
    expect(within(dialog()).getByRole('radio', { name: 'Secondary' })).toHaveProperty('checked', true);
    await user.click(within(dialog()).getByRole('button', { name: 'Add Location' }));
    expect(within(dialog()).getByText(MESSAGES.location.nameRequired)).toBeTruthy();
    expect(await db.locations.count()).toBe(0);

    await user.type(within(dialog()).getByRole('textbox', { name: 'Name' }), 'Roke');
    await user.click(within(dialog()).getByRole('combobox', { name: 'Location type' }));
    await user.click(await screen.findByRole('option', { name: 'Island' }));
    await user.click(within(dialog()).getByRole('radio', { name: 'Main' }));
    await user.type(within(dialog()).getByRole('textbox', { name: 'Description' }), 'The school of wizards');
    expect(within(dialog()).getAllByRole('checkbox', { name: /^Book / }).map((box) => box.getAttribute('value'))).toEqual(['1', '2', '3']);
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Book 3: The Farthest Shore' }));
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Book 1: A Wizard of Earthsea' }));
    // "Always include" starts unmarked and toggles from the keyboard.
    const always = within(dialog()).getByRole('checkbox', { name: 'Always include in companion context' });
    expect(always).toHaveProperty('checked', false);
    always.focus();
    await user.keyboard(' ');
    expect(always).toHaveProperty('checked', true);
    await user.click(within(dialog()).getByRole('button', { name: 'Add Location' }));

    expect(await screen.findByText('Location added')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = await screen.findByTestId('location-card');
    expect(within(card).getByRole('heading', { name: 'Roke' })).toBeTruthy();
    expect(within(card).getByText('Island')).toBeTruthy();
    expect(within(card).getByText('Main')).toBeTruthy();
    expect(within(card).getByTestId('location-appearances').textContent).toBe('Books 1, 3');

    const [row] = await db.locations.toArray();
    expect(row).toMatchObject({
      seriesId: series.id,
      name: 'Roke',
      locationType: 'island',
      importance: 'main',
      description: 'The school of wizards',
      bookAppearances: [1, 3],
      image: null,
      alwaysInclude: true,
    });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'POST', path: '/api/locations' });
  });

  it('View Details edits a location; delete asks first with the spec text', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const gont = serverLocation(series.id, { name: 'Gont', description: 'A mountain' });
    const { db } = renderScreen(<WorldScreen />);
    await db.series.put(series);
    await db.locations.put(gont);

    await user.click(await screen.findByRole('button', { name: 'View details of Gont' }));
    expect(within(dialog()).getByRole('heading', { name: 'Edit Location' })).toBeTruthy();
    const description = within(dialog()).getByRole('textbox', { name: 'Description' });
    expect(description).toHaveProperty('value', 'A mountain');
    await user.clear(description);
    await user.type(description, 'A mountain in the sea');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Image URL' }), 'not a url');
    await user.click(within(dialog()).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog()).getByText(/web address starting with http/)).toBeTruthy();
    await user.clear(within(dialog()).getByRole('textbox', { name: 'Image URL' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Location updated')).toBeTruthy();
    await waitFor(async () => expect((await db.locations.get(gont.id))!.description).toBe('A mountain in the sea'));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'PUT', path: `/api/locations/${gont.id}`, body: { description: 'A mountain in the sea' } });

    // The edit button opens the same dialog.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Edit Gont' }));
    expect(within(dialog()).getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'Gont');
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Delete Gont' }));
    expect(within(dialog()).getByText(MESSAGES.confirm.deleteLocation)).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(await db.locations.count()).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Delete Gont' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Location deleted')).toBeTruthy();
    expect(await screen.findByText('No Locations Found')).toBeTruthy();
    expect((await db.locations.get(gont.id))?.deletedAt ?? 'removed').toBeTruthy();
  });

  it('warns before the Apprentice limit and locks New Element at 10 with the upgrade message', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />);
    await db.series.put(series);
    await db.locations.bulkPut(Array.from({ length: 8 }, (_, i) => serverLocation(series.id, { name: `Place ${i + 1}` })));
    const notice = await screen.findByTestId('location-limit');
    expect(notice.textContent).toContain('8 of 10 locations on the Apprentice plan');
    expect(notice.textContent).toContain('You can add 2 more locations');
    expect((screen.getByRole('button', { name: 'New Element' }) as HTMLButtonElement).disabled).toBe(false);

    await db.locations.bulkPut([serverLocation(series.id, { name: 'Place 9' }), serverLocation(series.id, { name: 'Place 10' })]);
    await waitFor(() => expect(screen.getByTestId('location-limit').textContent).toContain('10 of 10 locations on the Apprentice plan'));
    expect(screen.getByTestId('location-limit').textContent).toContain('You have used all 10 locations your plan allows in this series.');
    expect(within(screen.getByTestId('location-limit')).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    expect((screen.getByRole('button', { name: 'New Element' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('has no location limit on The Wordsmith', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith' });
    await db.series.put(series);
    await db.locations.bulkPut(Array.from({ length: 12 }, (_, i) => serverLocation(series.id, { name: `Place ${i + 1}` })));
    await waitFor(() => expect(screen.getAllByTestId('location-card')).toHaveLength(12));
    expect(screen.queryByTestId('location-limit')).toBeNull();
    expect((screen.getByRole('button', { name: 'New Element' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('every tab works: an apprentice sees the entry tabs locked with the upgrade prompt, never "Coming Soon"', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderScreen(<WorldScreen />);
    await db.series.put(serverSeries({ title: 'Earthsea' }));
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent?.replace(/\d+$/, ''))).toEqual([
      'Locations',
      'Cultures',
      'Magic Systems',
      'Flora & Fauna',
      'Technology',
      'Politics',
    ]);
    for (const name of ['Cultures', 'Magic Systems', 'Flora & Fauna', 'Technology', 'Politics']) {
      await user.click(screen.getByRole('tab', { name }));
      expect(await screen.findByText('Feature Locked')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
      expect(screen.queryByText('Coming Soon')).toBeNull();
      expect(screen.queryByRole('searchbox', { name: 'Search locations' })).toBeNull();
    }
    await user.click(screen.getByRole('tab', { name: /Locations/ }));
    expect(await screen.findByRole('searchbox', { name: 'Search locations' })).toBeTruthy();
  });

  it('renders a long list in pages so a large world stays fast', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith' });
    await db.series.put(series);
    await db.locations.bulkPut(Array.from({ length: 60 }, (_, i) => serverLocation(series.id, { name: `Place ${String(i + 1).padStart(2, '0')}` })));
    await waitFor(() => expect(screen.getAllByTestId('location-card')).toHaveLength(48));
    await user.click(screen.getByRole('button', { name: 'Show more (12 more)' }));
    expect(screen.getAllByTestId('location-card')).toHaveLength(60);
  });
});

describe('World Building page: a viewer of a shared series', () => {
  it('shows the locations read-only with the notice, the details with every field locked, and unlocks when the role becomes editor', async () => {
    const user = userEvent.setup({ delay: null });
    const other = '0190a6f0-0000-7000-8000-0000000000aa';
    const series = serverSeries({ title: 'Their Saga', ownerId: other });
    window.localStorage.setItem(CURRENT_SERIES_KEY, series.id);
    const { db } = renderScreen(<WorldScreen />, { plan: 'wordsmith' });
    await db.series.put(series);
    await db.locations.put(serverLocation(series.id, { name: 'Gont' }));
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    await waitFor(() => expect(cardNames()).toEqual(['Gont']));
    expect((await screen.findByTestId('read-only-notice')).textContent).toContain(ROLE_MESSAGES.readOnly);
    expect(screen.queryByRole('button', { name: 'New Element' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Gont' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Gont' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'View details of Gont' }));
    expect(await screen.findByText('Location Details')).toBeTruthy();
    expect((within(dialog()).getByRole('textbox', { name: /Name/ }) as HTMLInputElement).closest('fieldset')!.disabled).toBe(true);
    expect(within(dialog()).queryByRole('button', { name: 'Save Changes' })).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Close' }));

    await db.seriesRoles.put({ seriesId: series.id, role: 'editor', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    expect(await screen.findByRole('button', { name: 'Edit Gont' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New Element' })).toBeTruthy();
    expect(screen.queryByTestId('read-only-notice')).toBeNull();
  });
});
