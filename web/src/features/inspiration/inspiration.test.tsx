import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { newId } from '@chronicler/schema';
import { createMutators } from '@chronicler/sync-client';
import { freshDb } from '@chronicler/sync-client/testing';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { InspirationScreen } from './InspirationScreen';
import { PromptOfTheDay } from './PromptOfTheDay';
import { PROMPTS, PROMPT_KINDS, promptOfTheDay, searchPrompts } from './prompts';

async function ownerDb() {
  const db = freshDb();
  const stamp = new Date().toISOString();
  await db.entitlements.put({ id: newId(), rev: 1, createdAt: stamp, updatedAt: stamp, deletedAt: null, userId: USER_ID, kind: 'inspiration-pack', expiresAt: null, giftCode: null, giftRedeemedAt: null });
  return db;
}

describe('the prompts', () => {
  it('are 100, distinct, of every kind, with stable ids', () => {
    expect(PROMPTS).toHaveLength(100);
    expect(new Set(PROMPTS.map((p) => p.id)).size).toBe(100);
    expect(new Set(PROMPTS.map((p) => p.text)).size).toBe(100);
    for (const kind of PROMPT_KINDS) expect(PROMPTS.filter((p) => p.kind === kind).length).toBeGreaterThanOrEqual(15);
    expect(PROMPTS[0]!.id).toBe('plot-01');
  });

  it('search matches every word in title or text, ignoring case and accents, within a kind', () => {
    expect(searchPrompts('LETTER wrong').map((p) => p.id)).toContain('plot-01');
    expect(searchPrompts('letter', 'dialogue').every((p) => p.kind === 'dialogue')).toBe(true);
    expect(searchPrompts('zzzz')).toEqual([]);
    expect(searchPrompts('')).toHaveLength(100);
  });

  it('the prompt of the day holds all day and walks all 100 before repeating', () => {
    expect(promptOfTheDay(new Date(2026, 10, 25, 0, 5))).toBe(promptOfTheDay(new Date(2026, 10, 25, 23, 55)));
    const seen = new Set<string>();
    for (let d = 0; d < 100; d++) seen.add(promptOfTheDay(new Date(2026, 0, 1 + d, 12)).id);
    expect(seen.size).toBe(100);
  });
});

describe('Inspiration Pack screen', () => {
  it('is offered, not shown, to authors without the pack', async () => {
    renderWithDb(<InspirationScreen />, { path: '/inspiration' });
    expect(await screen.findByText('Part of the Inspiration Pack')).toBeTruthy();
    expect(screen.queryByTestId('prompt-plot-01')).toBeNull();
  });

  it('owners browse and search; "Use prompt" starts a chapter in the chosen book and opens the editor', async () => {
    const db = await ownerDb();
    const mutators = createMutators(db);
    const series = await mutators.series.create({ title: 'The Long Road', description: '', totalBooks: 2 });
    const book = await mutators.books.create({ seriesId: series.id, title: 'Departure', description: '' });
    renderWithDb(<InspirationScreen />, { path: '/inspiration', db });
    expect(await screen.findByTestId('prompt-plot-01')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Search prompts' }), { target: { value: 'night market' } });
    await waitFor(() => expect(screen.getAllByTestId(/^prompt-/)).toHaveLength(1));
    fireEvent.click(within(screen.getByTestId('prompt-setting-09')).getByRole('button', { name: /Use prompt/ }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog).getByRole('combobox') as HTMLSelectElement).value).toBe(book.id));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start writing' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/chapter-editor\?id=/));
    const [chapter] = await db.chapters.where('bookId').equals(book.id).toArray();
    expect(chapter!.title).toBe('Night market');
    expect(chapter!.content.startsWith('[Prompt: Invent a place that only exists')).toBe(true);
    expect(await db.outbox.count()).toBeGreaterThan(0);
  });

  it('PromptOfTheDay: today\'s prompt for owners, a pointer to the pack for others', async () => {
    const day = new Date(2026, 10, 25, 12);
    const first = renderWithDb(<PromptOfTheDay date={day} />, { db: await ownerDb() });
    expect(await screen.findByText(promptOfTheDay(day).title)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Use prompt' }).getAttribute('href')).toBe(`/inspiration?prompt=${promptOfTheDay(day).id}`);
    first.unmount();
    renderWithDb(<PromptOfTheDay date={day} />);
    expect(await screen.findByRole('link', { name: 'Inspiration Pack' })).toBeTruthy();
  });
});
