/**
 * The series' Trash and a chapter's move between books (docs/decisions/0014-trash-and-restructure.md):
 * `trashed` and `bookId` on the ordinary PUT, merged with concurrent edits; the Trash listed per
 * series; restore refused into a trashed book; moves only within the series; viewers refused; the
 * purge after the retention; and the feed carrying all of it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESTRUCTURE_MESSAGES, TRASH_RETENTION_MS } from '@chronicler/schema';
import { purgeDueTrash } from '../../src/story/trash.ts';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let stranger: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'loremaster', email: `owner_${Date.now()}_${Math.random().toString(36).slice(2)}@example.com` }));
  stranger = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
});
afterEach(async () => t.close());

const base = (row: { rev: number }) => ({ 'x-base-rev': String(row.rev) });

async function twoBooks(who: StoryClient = me) {
  const { series, book, chapter } = await who.seriesWithChapter();
  const second = await who.create('/api/chapters', { bookId: book.id, title: 'Chapter 2', content: 'Then it went on.' });
  const otherBook = await who.create('/api/books', { seriesId: series.id, title: 'Book Two' });
  const other = await who.create('/api/chapters', { bookId: otherBook.id, title: 'Later', content: 'Years later.' });
  return { series, book, chapter, second, otherBook, other };
}

describe('the Trash', () => {
  it('keeps a trashed chapter as a live row with trashedAt, lists it per series, and restores it in its place', async () => {
    const { series, book, chapter, second } = await twoBooks();
    const trashed = json(await me.put(`/api/chapters/${chapter.id}`, { trashed: true }, base(chapter)));
    expect(trashed).toMatchObject({ id: chapter.id, trashedAt: expect.any(String), deletedAt: null, position: 1, content: 'It began.' });
    const { entries } = await me.read(`/api/series/${series.id}/trash`);
    expect(entries).toEqual([
      { kind: 'chapters', id: chapter.id, title: 'Chapter 1', bookId: book.id, wordCount: 2, trashedAt: trashed.trashedAt, purgeAt: new Date(Date.parse(trashed.trashedAt) + TRASH_RETENTION_MS).toISOString() },
    ]);
    expect(await me.read(`/api/chapters/${second.id}`)).toMatchObject({ position: 2 });
    const restored = json(await me.put(`/api/chapters/${chapter.id}`, { trashed: false }, base(trashed)));
    expect(restored).toMatchObject({ trashedAt: null, position: 1 });
    expect((await me.read(`/api/series/${series.id}/trash`)).entries).toEqual([]);
  });

  it('converges a trash on one device and an edit on another (same base) to the edited chapter in the trash', async () => {
    const { chapter } = await me.seriesWithChapter();
    expect((await me.put(`/api/chapters/${chapter.id}`, { content: 'It began.\nA new paragraph.' }, base(chapter))).statusCode).toBe(200);
    const later = json(await me.put(`/api/chapters/${chapter.id}`, { trashed: true }, base(chapter)));
    expect(later).toMatchObject({ content: 'It began.\nA new paragraph.', trashedAt: expect.any(String), mergeStatus: 'merged' });
    // And the other order: the trash first, then the edit made on the old base.
    const { chapter: c2 } = await me.seriesWithChapter();
    await me.put(`/api/chapters/${c2.id}`, { trashed: true }, base(c2));
    const edited = json(await me.put(`/api/chapters/${c2.id}`, { content: 'It began, again.' }, base(c2)));
    expect(edited).toMatchObject({ content: 'It began, again.', trashedAt: expect.any(String) });
  });

  it('trashes a book with its chapters hidden, and refuses to restore a chapter into it until the book is back', async () => {
    const { series, book, chapter } = await twoBooks();
    const trashedChapter = json(await me.put(`/api/chapters/${chapter.id}`, { trashed: true }));
    const trashedBook = json(await me.put(`/api/books/${book.id}`, { trashed: true }));
    expect(trashedBook.trashedAt).toEqual(expect.any(String));
    const kinds = (await me.read(`/api/series/${series.id}/trash`)).entries.map((e: { kind: string }) => e.kind).sort();
    expect(kinds).toEqual(['books', 'chapters']);
    expectError(await me.put(`/api/chapters/${chapter.id}`, { trashed: false }), 422, 'VALIDATION_FAILED', RESTRUCTURE_MESSAGES.restoreIntoTrashedBook);
    expect(await me.read(`/api/chapters/${chapter.id}`)).toMatchObject({ trashedAt: trashedChapter.trashedAt });
    expect((await me.put(`/api/books/${book.id}`, { trashed: false })).statusCode).toBe(200);
    expect(json(await me.put(`/api/chapters/${chapter.id}`, { trashed: false }))).toMatchObject({ trashedAt: null });
  });

  it('purges what was trashed before the retention, and nothing newer', async () => {
    const { series, book, chapter, second, otherBook, other } = await twoBooks();
    await me.put(`/api/chapters/${chapter.id}`, { trashed: true });
    await me.put(`/api/books/${otherBook.id}`, { trashed: true });
    expect(await purgeDueTrash(t.app.deps, Date.now())).toBe(0);
    expect(await purgeDueTrash(t.app.deps, Date.now() + TRASH_RETENTION_MS + 60_000)).toBe(2);
    expect((await me.get(`/api/chapters/${chapter.id}`)).statusCode).toBe(404);
    expect((await me.get(`/api/chapters/${other.id}`)).statusCode).toBe(404);
    expect((await me.get(`/api/books/${otherBook.id}`)).statusCode).toBe(404);
    // The book's other chapter closes the gap, and the feed carries the tombstones.
    expect(await me.read(`/api/chapters/${second.id}`)).toMatchObject({ position: 1, bookId: book.id });
    expect((await me.read(`/api/series/${series.id}/trash`)).entries).toEqual([]);
    const feed = await me.read('/api/sync/changes?since=0&limit=10000');
    expect(feed.changes.chapters.find((c: { id: string }) => c.id === chapter.id)).toMatchObject({ deletedAt: expect.any(String) });
  });
});

describe('moving a chapter to another book', () => {
  it('keeps its id, text and revisions, appends it to the target and closes the gap in the source', async () => {
    const { chapter, second, otherBook, other } = await twoBooks();
    const moved = json(await me.put(`/api/chapters/${chapter.id}`, { bookId: otherBook.id }, base(chapter)));
    expect(moved).toMatchObject({ id: chapter.id, bookId: otherBook.id, position: 2, content: 'It began.', mergeStatus: 'fast-forward' });
    expect(await me.read(`/api/chapters/${second.id}`)).toMatchObject({ position: 1 });
    expect(await me.read(`/api/chapters/${other.id}`)).toMatchObject({ position: 1 });
    const revisions = await me.read(`/api/chapters/${chapter.id}/revisions`);
    expect(revisions.length).toBeGreaterThanOrEqual(1);
    // Back to its place: position 1 of its first book.
    const back = json(await me.put(`/api/chapters/${chapter.id}`, { bookId: chapter.bookId, position: 1 }));
    expect(back).toMatchObject({ bookId: chapter.bookId, position: 1 });
    expect(await me.read(`/api/chapters/${second.id}`)).toMatchObject({ position: 2 });
  });

  it('merges with a concurrent edit of the same chapter: moved, and no words lost', async () => {
    const { chapter, otherBook } = await twoBooks();
    await me.put(`/api/chapters/${chapter.id}`, { content: 'It began.\nMore.' }, base(chapter));
    const moved = json(await me.put(`/api/chapters/${chapter.id}`, { bookId: otherBook.id }, base(chapter)));
    expect(moved).toMatchObject({ bookId: otherBook.id, content: 'It began.\nMore.' });
  });

  it('refuses a book of another series, a trashed book and a stranger’s book, changing nothing', async () => {
    const { chapter, otherBook } = await twoBooks();
    const elsewhere = await me.seriesWithChapter();
    expectError(await me.put(`/api/chapters/${chapter.id}`, { bookId: elsewhere.book.id }), 422, 'VALIDATION_FAILED', RESTRUCTURE_MESSAGES.moveOtherSeries);
    await me.put(`/api/books/${otherBook.id}`, { trashed: true });
    expectError(await me.put(`/api/chapters/${chapter.id}`, { bookId: otherBook.id }), 422, 'VALIDATION_FAILED', RESTRUCTURE_MESSAGES.moveIntoTrashedBook);
    const theirs = await stranger.seriesWithChapter();
    expect((await me.put(`/api/chapters/${chapter.id}`, { bookId: theirs.book.id })).statusCode).toBe(404);
    expect((await stranger.put(`/api/chapters/${chapter.id}`, { bookId: theirs.book.id })).statusCode).toBe(404);
    expect(await me.read(`/api/chapters/${chapter.id}`)).toMatchObject({ bookId: chapter.bookId, position: 1 });
  });
});

describe('roles', () => {
  it('lets an editor trash, restore and move, and refuses a viewer every one of them', async () => {
    const { series, chapter, otherBook } = await twoBooks();
    const join = async (role: 'editor' | 'viewer') => {
      const email = `${role}_${Date.now()}_${Math.random().toString(36).slice(2)}@example.com`;
      const member = storyClient(t.app, await signUp(t.app, { plan: 'apprentice', email }));
      const invite = json(await me.post(`/api/collaboration/series/${series.id}/invites`, { inviteeEmail: email, role }));
      expect((await member.post(`/api/collaboration/invites/${invite.id}/accept`, {})).statusCode).toBe(200);
      return member;
    };
    const viewer = await join('viewer');
    for (const [url, body] of [
      [`/api/chapters/${chapter.id}`, { trashed: true }],
      [`/api/chapters/${chapter.id}`, { bookId: otherBook.id }],
      [`/api/books/${otherBook.id}`, { trashed: true }],
    ] as const) {
      expect((await viewer.put(url, body)).statusCode).toBe(403);
    }
    expect((await viewer.read(`/api/series/${series.id}/trash`)).entries).toEqual([]);
    const editor = await join('editor');
    expect((await editor.put(`/api/chapters/${chapter.id}`, { trashed: true })).statusCode).toBe(200);
    expect((await editor.put(`/api/chapters/${chapter.id}`, { trashed: false })).statusCode).toBe(200);
    expect(json(await editor.put(`/api/chapters/${chapter.id}`, { bookId: otherBook.id }))).toMatchObject({ bookId: otherBook.id });
  });
});
