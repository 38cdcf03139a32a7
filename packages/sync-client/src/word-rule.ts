/**
 * This device's copies of chapters follow the word rule (packages/schema rules.ts
 * WORD_RULE_VERSION; docs/decisions/0016-one-word-rule.md). The server makes its stored counts
 * again when the rule changes, without moving a rev (sync-server story/word-rule.ts), so the rows
 * this device holds would keep the older rule's counts until each chapter changed again: the book
 * and series totals would disagree with the server's. The sync leader recounts them once per rule,
 * the rows and their shadows (the server state the rebase replays over) together.
 */
import { WORD_RULE_VERSION, chapterWordCount } from '@chronicler/schema';
import { type ChroniclerDb, readSyncState } from './db.ts';

/** Answers how many chapter rows changed (0 when this device already counts by the current rule). */
export async function recountForWordRule(db: ChroniclerDb): Promise<number> {
  if ((await readSyncState(db)).wordRule === WORD_RULE_VERSION) return 0;
  return db.transaction('rw', [db.chapters, db.shadows, db.syncState], async () => {
    let changed = 0;
    await db.chapters.toCollection().modify((row) => {
      const count = chapterWordCount(row.content);
      if (count === row.wordCount) return;
      row.wordCount = count;
      changed++;
    });
    await db.shadows
      .filter((shadow) => shadow.entity === 'chapters' && shadow.row !== null && typeof (shadow.row as { content?: unknown }).content === 'string')
      .modify((shadow) => {
        const row = shadow.row as { content: string; wordCount: number };
        row.wordCount = chapterWordCount(row.content);
      });
    await db.syncState.update('state', { wordRule: WORD_RULE_VERSION });
    return changed;
  });
}
