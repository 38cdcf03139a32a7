/**
 * The writing companion's stored suggestions on the device: read offline from Dexie, and a
 * suggestion the server just generated stored at once (the pull would bring the same row at the
 * same rev a moment later; an older copy never replaces a newer one).
 */
import type { AiSuggestion } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';

/** Live suggestions of a series, oldest first (newest last, as the server lists them); with a book, that book's only. */
export async function suggestionsOfSeries(db: ChroniclerDb, seriesId: string, bookId?: string | null): Promise<AiSuggestion[]> {
  const rows = await db.aiSuggestions.where('seriesId').equals(seriesId).toArray();
  return rows
    .filter((row) => row.deletedAt === null && (!bookId || row.bookId === bookId))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Stores a suggestion as the server answered it, unless the device already has it at a later rev. */
export async function storeGeneratedSuggestion(db: ChroniclerDb, row: AiSuggestion): Promise<void> {
  await db.transaction('rw', db.aiSuggestions, async () => {
    const current = await db.aiSuggestions.get(row.id);
    if (!current || current.rev < row.rev) await db.aiSuggestions.put(row);
  });
}
