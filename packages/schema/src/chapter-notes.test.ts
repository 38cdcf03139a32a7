import { describe, expect, it } from 'vitest';
import { LIMITS, chapterSchema, createChapterBodySchema, updateChapterBodySchema } from './entities.ts';

const bookId = '0190a000-0000-7000-8000-000000000001';

describe('a chapter’s synopsis and notes', () => {
  it('default to empty on a create and are optional on an update', () => {
    const created = createChapterBodySchema.parse({ bookId, title: 'One' });
    expect(created.synopsis).toBe('');
    expect(created.notes).toBe('');
    expect(updateChapterBodySchema.parse({ synopsis: 'She *finds* the map.' })).toEqual({ synopsis: 'She *finds* the map.' });
  });

  it('are refused past their limits with the field’s message', () => {
    const synopsis = updateChapterBodySchema.safeParse({ synopsis: 'x'.repeat(LIMITS.chapterSynopsis + 1) });
    expect(synopsis.success).toBe(false);
    expect(synopsis.error?.issues[0]).toMatchObject({ path: ['synopsis'], message: `Must be at most ${LIMITS.chapterSynopsis} characters` });
    const notes = createChapterBodySchema.safeParse({ bookId, title: 'One', notes: 'x'.repeat(LIMITS.chapterNotes + 1) });
    expect(notes.success).toBe(false);
    expect(notes.error?.issues[0]).toMatchObject({ path: ['notes'], message: `Must be at most ${LIMITS.chapterNotes} characters` });
    expect(updateChapterBodySchema.safeParse({ synopsis: 'x'.repeat(LIMITS.chapterSynopsis), notes: 'y'.repeat(LIMITS.chapterNotes) }).success).toBe(true);
  });

  it('may be absent from a row written before they existed', () => {
    const row = {
      id: bookId, rev: 1, createdAt: 'now', updatedAt: 'now', deletedAt: null, seriesId: bookId, bookId,
      title: 'One', content: '', position: 1, wordCount: 0, status: 'draft',
    };
    expect(chapterSchema.safeParse(row).success).toBe(true);
  });
});
