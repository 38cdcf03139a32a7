/**
 * Places inside places on the World page, over a real local database and the real mutators
 * (docs/decisions/0021-places-inside-places.md): the tree view, breadcrumbs, adding a place inside
 * another, a move that keeps the places inside, the delete confirmation, search with ancestors, a
 * cycle merged from two devices, and a viewer.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLACE_MESSAGES } from '@chronicler/schema';
import { serverSeries } from '@chronicler/sync-client/testing';
import { CURRENT_SERIES_KEY } from '@/lib/currentSeries';
import { serverLocation } from '@/test/fixtures';
import { renderWithDb } from '@/test/renderWithDb';
import { WorldScreen } from '../index';
import { LOCATIONS_VIEW_KEY } from './LocationsTab';

vi.setConfig({ testTimeout: 30_000 });

const dialog = () => screen.getByRole('dialog');
const tree = () => screen.getByRole('tree', { name: 'Places' });
const shownPlaces = () =>
  within(tree())
    .queryAllByRole('treeitem')
    .map((el) => `${'  '.repeat(Number(el.getAttribute('aria-level')) - 1)}${el.querySelector('[data-place-name]')?.textContent}`);

async function nestedWorld(options: { view?: 'tree' | 'cards'; plan?: 'wordsmith' | 'apprentice' } = {}) {
  window.localStorage.setItem(LOCATIONS_VIEW_KEY, options.view ?? 'tree');
  const series = serverSeries({ title: 'Earthsea' });
  const earthsea = serverLocation(series.id, { name: 'Earthsea', importance: 'main' });
  const archipelago = serverLocation(series.id, { name: 'Archipelago', parentId: earthsea.id });
  const roke = serverLocation(series.id, { name: 'Roke', parentId: archipelago.id, description: 'The school of wizards' });
  const kargad = serverLocation(series.id, { name: 'Kargad Lands' });
  const rendered = renderWithDb(<WorldScreen />, { plan: options.plan ?? 'wordsmith' });
  await rendered.db.series.put(series);
  await rendered.db.locations.bulkPut([earthsea, archipelago, roke, kargad]);
  return { ...rendered, series, earthsea, archipelago, roke, kargad };
}

describe('places inside places on the World page', () => {
  it('shows the tree (the view is remembered), the chosen place beside it with where it is, and its details with breadcrumbs', async () => {
    const user = userEvent.setup({ delay: null });
    await nestedWorld();
    await waitFor(() => expect(shownPlaces()).toEqual(['Earthsea', 'Kargad Lands']));
    expect(screen.getByRole('radio', { name: 'Tree' })).toHaveProperty('checked', true);
    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(shownPlaces()).toEqual(['Earthsea', '  Archipelago', '    Roke', 'Kargad Lands']);

    await user.click(within(tree()).getByRole('treeitem', { name: 'Roke' }));
    const chosen = screen.getByRole('region', { name: 'Chosen place' });
    expect(within(chosen).getByTestId('location-path').textContent).toBe('In Earthsea › Archipelago');
    // Enter opens its details, with breadcrumbs that open the places it is inside.
    await user.keyboard('{Enter}');
    const trail = within(dialog()).getByRole('navigation', { name: 'Where Roke is' });
    expect(within(trail).getAllByRole('listitem').map((li) => li.textContent?.replace('›', '').trim())).toEqual(['Earthsea', 'Archipelago', 'Roke']);
    await user.click(within(trail).getByRole('button', { name: 'Archipelago' }));
    expect(within(dialog()).getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'Archipelago');
    expect(within(dialog()).getByRole('navigation', { name: 'Where Archipelago is' })).toBeTruthy();

    // Cards say where each place is too.
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('radio', { name: 'Cards' }));
    expect(window.localStorage.getItem(LOCATIONS_VIEW_KEY)).toBe('cards');
    const rokeCard = await screen.findByRole('article', { name: 'Roke' });
    expect(within(rokeCard).getByTestId('location-path').textContent).toBe('In Earthsea › Archipelago');
    expect(within(screen.getByRole('article', { name: 'Earthsea' })).getByTestId('location-inside-count').textContent).toBe('2 places inside');
  });

  it('adds a place inside another, offline, in one local write', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, roke } = await nestedWorld();
    await waitFor(() => expect(shownPlaces()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    await user.click(within(tree()).getByRole('treeitem', { name: 'Roke' }));
    await user.click(screen.getByRole('button', { name: 'Add a place inside Roke' }));
    expect(within(dialog()).getByRole('combobox', { name: 'Inside' })).toHaveProperty('value', 'Earthsea › Archipelago › Roke');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Name' }), 'The School');
    await user.click(within(dialog()).getByRole('button', { name: 'Add Location' }));
    await waitFor(() => expect(shownPlaces()).toEqual(['Earthsea', '  Archipelago', '    Roke', '      The School', 'Kargad Lands']));
    const school = (await db.locations.toArray()).find((l) => l.name === 'The School')!;
    expect(school.parentId).toBe(roke.id);
    expect((await db.outbox.toArray()).at(-1)).toMatchObject({ method: 'POST', body: { name: 'The School', parentId: roke.id } });
  });

  it('moves a place with the places inside it; only places it may go into are offered', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, archipelago, roke, kargad } = await nestedWorld();
    await waitFor(() => expect(shownPlaces()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    await user.click(within(tree()).getByRole('treeitem', { name: 'Archipelago' }));
    await user.click(screen.getByRole('button', { name: 'Move Archipelago' }));
    expect(within(dialog()).getByText(/or none to put it at the top level\. The place inside it moves with it\.$/)).toBeTruthy();
    await user.click(within(dialog()).getByRole('combobox', { name: 'Inside' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['None (top level)', 'Earthsea', 'Kargad Lands']);
    await user.click(screen.getByRole('option', { name: 'Kargad Lands' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Location updated')).toBeTruthy();
    await waitFor(async () => expect((await db.locations.get(archipelago.id))!.parentId).toBe(kargad.id));
    expect((await db.locations.get(roke.id))!.parentId).toBe(archipelago.id);
    // The moved place stays in sight, chosen, with the places it is now inside open.
    expect(shownPlaces()).toEqual(['Earthsea', 'Kargad Lands', '  Archipelago', '    Roke']);
    expect(within(tree()).getByRole('treeitem', { name: 'Archipelago' }).getAttribute('aria-selected')).toBe('true');
    expect((await db.outbox.toArray()).at(-1)).toMatchObject({ method: 'PUT', path: `/api/locations/${archipelago.id}`, body: { parentId: kargad.id } });
  });

  it('the delete confirmation says where the places inside go, and they go there', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, earthsea, roke } = await nestedWorld({ view: 'cards' });
    await user.click(await screen.findByRole('button', { name: 'Delete Archipelago' }));
    expect(within(dialog()).getByTestId('confirm-delete-details').textContent).toBe('The place inside Archipelago is not deleted: it moves up into Earthsea.');
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Location deleted')).toBeTruthy();
    await waitFor(async () => expect((await db.locations.get(roke.id))!.parentId).toBe(earthsea.id));
  });

  it('a search shows the matches with the places they are inside', async () => {
    const user = userEvent.setup({ delay: null });
    await nestedWorld();
    await waitFor(() => expect(shownPlaces()).toHaveLength(2));
    await user.type(screen.getByRole('searchbox', { name: 'Search locations' }), 'wizards');
    await waitFor(() => expect(shownPlaces()).toEqual(['Earthsea', '  Archipelago', '    Roke']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search locations' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search locations' }), 'mordor');
    expect(await screen.findByText('No Locations Found')).toBeTruthy();
  });

  it('places whose moves looped on two devices are drawn at the top level and say so; the page never hangs', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, earthsea, roke } = await nestedWorld();
    await waitFor(() => expect(shownPlaces()).toHaveLength(2));
    // As after a merge: Earthsea was moved into Roke on another device.
    await db.locations.update(earthsea.id, { parentId: roke.id });
    await waitFor(() => expect(shownPlaces()).toEqual(['Earthsea', 'Archipelago', 'Kargad Lands', 'Roke']));
    await user.click(within(tree()).getByRole('treeitem', { name: 'Roke' }));
    expect(within(screen.getByRole('region', { name: 'Chosen place' })).getByRole('note').textContent).toBe(PLACE_MESSAGES.loops);
  });

  it('a viewer sees the tree and the breadcrumbs but cannot move, add inside, or delete', async () => {
    const user = userEvent.setup({ delay: null });
    const other = '0190a6f0-0000-7000-8000-0000000000aa';
    window.localStorage.setItem(LOCATIONS_VIEW_KEY, 'tree');
    const series = serverSeries({ title: 'Their Saga', ownerId: other });
    window.localStorage.setItem(CURRENT_SERIES_KEY, series.id);
    const { db } = renderWithDb(<WorldScreen />, { plan: 'wordsmith' });
    const gont = serverLocation(series.id, { name: 'Gont' });
    await db.series.put(series);
    await db.locations.bulkPut([gont, serverLocation(series.id, { name: 'Re Albi', parentId: gont.id })]);
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    await waitFor(() => expect(shownPlaces()).toEqual(['Gont']));
    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    await user.click(within(tree()).getByRole('treeitem', { name: 'Re Albi' }));
    const chosen = screen.getByRole('region', { name: 'Chosen place' });
    expect(within(chosen).queryByRole('button', { name: 'Move Re Albi' })).toBeNull();
    expect(within(chosen).queryByRole('button', { name: 'Add a place inside Re Albi' })).toBeNull();
    expect(within(chosen).queryByRole('button', { name: 'Delete Re Albi' })).toBeNull();
    await user.keyboard('{Enter}');
    const trail = within(dialog()).getByRole('navigation', { name: 'Where Re Albi is' });
    expect((within(trail).getByRole('button', { name: 'Gont' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(dialog()).getByRole('combobox', { name: 'Inside' })).toHaveProperty('disabled', true);
  });
});
