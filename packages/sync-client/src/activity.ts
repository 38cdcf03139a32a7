/**
 * The Current Series card's recent activity on the dashboard (spec 000 §2): what happened in the
 * series, from its rows — chapters written and completed, books completed, characters and places
 * added — newest first.
 */
import type { ChroniclerDb } from './db.ts';

export type ActivityKind = 'chapter-written' | 'chapter-completed' | 'book-completed' | 'character-added' | 'location-added';

export interface ActivityItem {
  /** `kind:id`, unique within the list. */
  key: string;
  kind: ActivityKind;
  description: string;
  /** ISO time of the event. */
  at: string;
}

/** The series' latest `limit` events. */
export async function seriesActivity(db: ChroniclerDb, seriesId: string, limit = 5): Promise<ActivityItem[]> {
  const [chapters, books, characters, locations] = await Promise.all([
    db.chapters.where('seriesId').equals(seriesId).toArray(),
    db.books.where('seriesId').equals(seriesId).toArray(),
    db.characters.where('seriesId').equals(seriesId).toArray(),
    db.locations.where('seriesId').equals(seriesId).toArray(),
  ]);
  const items: ActivityItem[] = [];
  for (const c of chapters) {
    if (c.deletedAt) continue;
    if (c.status === 'completed') items.push({ key: `chapter:${c.id}`, kind: 'chapter-completed', description: `Completed chapter "${c.title}"`, at: c.updatedAt });
    // The chapter's length, not words written: an imported or pasted chapter was not typed here
    // (the writing statistics count what was, progress/counting.ts).
    else if (c.wordCount > 0) items.push({ key: `chapter:${c.id}`, kind: 'chapter-written', description: `Updated "${c.title}" · ${c.wordCount.toLocaleString('en-US')} words`, at: c.updatedAt });
  }
  for (const b of books) {
    if (!b.deletedAt && b.status === 'completed') items.push({ key: `book:${b.id}`, kind: 'book-completed', description: `Completed book "${b.title}"`, at: b.updatedAt });
  }
  for (const c of characters) if (!c.deletedAt) items.push({ key: `character:${c.id}`, kind: 'character-added', description: `Added character ${c.name}`, at: c.createdAt });
  for (const l of locations) if (!l.deletedAt) items.push({ key: `location:${l.id}`, kind: 'location-added', description: `Added place ${l.name}`, at: l.createdAt });
  return items.sort((a, b) => b.at.localeCompare(a.at) || a.key.localeCompare(b.key)).slice(0, limit);
}
