/**
 * A book's goal (docs/decisions/0018-pace-predictions.md, src/story/book-goal.ts): stored and sent
 * in the feed as book fields; gated by `pacePredictions` on the series owner's plan with the tier
 * message; a deadline in the past and a target below the book's words refused with clear messages;
 * an editor may set one, a viewer not.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOK_GOAL_MESSAGES, addDays, upgradeMessage, writingDay } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;

const unique = (who: string) => `${who}_${Date.now()}_${Math.random().toString(36).slice(2)}@example.com`;
const today = () => writingDay(Date.now(), 'UTC');

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'loremaster', email: unique('owner') }));
});
afterEach(async () => t.close());

describe('a book goal', () => {
  it('is stored, answered and sent in the feed; cleared with null', async () => {
    const { book } = await me.seriesWithChapter();
    const deadline = addDays(today(), 60);
    const saved = json(await me.put(`/api/books/${book.id}`, { targetWords: 90_000, deadline, writingDays: [5, 1, 3], daysOff: [addDays(today(), 3)] }));
    expect(saved).toMatchObject({ targetWords: 90_000, deadline, writingDays: [1, 3, 5], daysOff: [addDays(today(), 3)] });
    expect(await me.read(`/api/books/${book.id}`)).toMatchObject({ targetWords: 90_000, deadline, writingDays: [1, 3, 5] });
    const feed = await me.read('/api/sync/changes?since=0');
    const row = JSON.stringify(feed);
    expect(row).toContain('"targetWords":90000');
    const cleared = json(await me.put(`/api/books/${book.id}`, { targetWords: null, deadline: null }));
    expect(cleared).toMatchObject({ targetWords: null, deadline: null, writingDays: [1, 3, 5] });
  });

  it('reads as no goal on a book that never had one', async () => {
    const { book } = await me.seriesWithChapter();
    expect(await me.read(`/api/books/${book.id}`)).toMatchObject({ targetWords: null, deadline: null, writingDays: [], daysOff: [] });
  });

  it('refuses a deadline in the past and a target below the words already written, keeping the book as it was', async () => {
    const { book } = await me.seriesWithChapter();
    await me.create('/api/chapters', { bookId: book.id, title: 'Two', content: 'one two three four five six seven eight nine ten' });
    expectError(await me.put(`/api/books/${book.id}`, { targetWords: 5_000, deadline: addDays(today(), -3) }), 422, 'VALIDATION_FAILED', BOOK_GOAL_MESSAGES.deadlinePast);
    expectError(await me.put(`/api/books/${book.id}`, { targetWords: 5 }), 422, 'VALIDATION_FAILED', BOOK_GOAL_MESSAGES.targetBelowWritten(12));
    expectError(await me.put(`/api/books/${book.id}`, { writingDays: [] }), 422, 'VALIDATION_FAILED', BOOK_GOAL_MESSAGES.writingDaysEmpty);
    expect(await me.read(`/api/books/${book.id}`)).toMatchObject({ targetWords: null, deadline: null });
    // Today is fine; and a stored deadline does not block later writes once it has passed.
    expect((await me.put(`/api/books/${book.id}`, { targetWords: 12, deadline: today() })).statusCode).toBe(200);
  });

  it('needs pace predictions on the owner plan: an apprentice hears the tier message, other book fields still save', async () => {
    const apprentice = storyClient(t.app, await signUp(t.app, { plan: 'apprentice', email: unique('apprentice') }));
    const { book } = await apprentice.seriesWithChapter();
    expectError(await apprentice.put(`/api/books/${book.id}`, { targetWords: 50_000 }), 403, 'FEATURE_LOCKED', upgradeMessage('wordsmith'));
    expectError(await apprentice.put(`/api/books/${book.id}`, { title: 'Renamed', deadline: null }), 403, 'FEATURE_LOCKED');
    expect(json(await apprentice.put(`/api/books/${book.id}`, { title: 'Renamed' }))).toMatchObject({ title: 'Renamed', targetWords: null });
  });

  it('lets an editor of a shared book set a goal, and refuses a viewer', async () => {
    const { series, book } = await me.seriesWithChapter();
    const join = async (role: 'editor' | 'viewer') => {
      const email = unique(role);
      const member = storyClient(t.app, await signUp(t.app, { plan: 'apprentice', email }));
      const invite = json(await me.post(`/api/collaboration/series/${series.id}/invites`, { inviteeEmail: email, role }));
      expect((await member.post(`/api/collaboration/invites/${invite.id}/accept`, {})).statusCode).toBe(200);
      return member;
    };
    expect((await (await join('viewer')).put(`/api/books/${book.id}`, { targetWords: 40_000 })).statusCode).toBe(403);
    // The owner's plan governs the series: an apprentice editor sets a goal on a Loremaster's book.
    expect(json(await (await join('editor')).put(`/api/books/${book.id}`, { targetWords: 40_000 }))).toMatchObject({ targetWords: 40_000 });
  });
});
