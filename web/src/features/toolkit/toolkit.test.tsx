import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { newId } from '@chronicler/schema';
import { createMutators } from '@chronicler/sync-client';
import { freshDb } from '@chronicler/sync-client/testing';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { PLOT_TEMPLATES, locationFromWorksheet } from './templates';
import { ToolkitScreen } from './ToolkitScreen';

async function ownerWithSeries() {
  const db = freshDb();
  const stamp = new Date().toISOString();
  await db.entitlements.put({ id: newId(), rev: 1, createdAt: stamp, updatedAt: stamp, deletedAt: null, userId: USER_ID, kind: 'writers-toolkit', expiresAt: null, giftCode: null, giftRedeemedAt: null });
  const mutators = createMutators(db);
  const series = await mutators.series.create({ title: 'Tides', description: '', totalBooks: 2 });
  const book = await mutators.books.create({ seriesId: series.id, title: 'Ebb', description: '' });
  return { db, series, book };
}

describe("Writer's Toolkit", () => {
  it('has three-act, hero’s journey and seven-point templates with a note for every beat', () => {
    expect(PLOT_TEMPLATES.map((t) => [t.id, t.beats.length])).toEqual([['three-act', 9], ['heros-journey', 12], ['seven-point', 7]]);
    for (const t of PLOT_TEMPLATES) for (const b of t.beats) expect(b.note.length).toBeGreaterThan(10);
  });

  it('is offered, not shown, to authors without it', async () => {
    renderWithDb(<ToolkitScreen />, { path: '/toolkit' });
    expect(await screen.findByText("Part of the Writer's Toolkit")).toBeTruthy();
  });

  it('lays out the chosen book as chapters with beat notes, in order', async () => {
    const { db, book } = await ownerWithSeries();
    renderWithDb(<ToolkitScreen />, { path: '/toolkit', db });
    const structure = await screen.findByRole('combobox', { name: 'Structure' });
    fireEvent.change(structure, { target: { value: 'seven-point' } });
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Book' }) as HTMLSelectElement).value).toBe(book.id));
    fireEvent.click(screen.getByRole('button', { name: 'Lay out 7 chapters' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/chapter-editor\?id=/));
    const chapters = (await db.chapters.where('bookId').equals(book.id).toArray()).sort((a, b) => a.position - b.position);
    expect(chapters.map((c) => c.title)).toEqual(['Hook', 'Plot turn 1', 'Pinch 1', 'Midpoint', 'Pinch 2', 'Plot turn 2', 'Resolution']);
    expect(chapters[0]!.content).toBe('[Seven-point structure — Hook: Start in the state opposite to the resolution.]\n\n');
  });

  it('the character worksheet fills in the character fields', async () => {
    const { db, series } = await ownerWithSeries();
    renderWithDb(<ToolkitScreen />, { path: '/toolkit', db });
    fireEvent.click(await screen.findByRole('tab', { name: 'Character worksheet' }));
    const form = await screen.findByRole('form', { name: 'Character worksheet' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create character' }));
    expect(await within(form).findByText('Character name is required')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/Name/), { target: { value: 'Mara' } });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'protagonist' } });
    fireEvent.change(within(form).getByLabelText(/What do they want/), { target: { value: 'To find her brother; to forgive herself.' } });
    fireEvent.change(within(form).getByLabelText(/under pressure/), { target: { value: 'Jokes, then goes quiet.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create character' }));
    await waitFor(async () => expect(await db.characters.where('seriesId').equals(series.id).count()).toBe(1));
    const [mara] = await db.characters.where('seriesId').equals(series.id).toArray();
    expect(mara).toMatchObject({ name: 'Mara', role: 'protagonist', isProtagonist: true, goals: 'To find her brother; to forgive herself.', personality: 'Jokes, then goes quiet.' });
  });

  it('the world worksheet writes the answered questions into the location description', () => {
    const body = locationFromWorksheet('s1', { name: 'Saltmarsh', locationType: 'town', importance: 'main', look: 'Grey reeds.', secret: ' A drowned bell. ', people: '' });
    expect(body.description).toBe('What does it look, sound and smell like?\nGrey reeds.\n\nWhat secret or danger does it hold?\nA drowned bell.');
    expect(body).toMatchObject({ name: 'Saltmarsh', locationType: 'town', importance: 'main' });
  });
});
