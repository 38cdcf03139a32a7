/**
 * Stored word counts follow the word rule (packages/schema rules.ts WORD_RULE_VERSION;
 * docs/decisions/0016-one-word-rule.md). A chapter's stored count is kept by difference on every
 * save (progress/counting.ts editedWordCount: the previous count plus the words the save added,
 * less those it removed), so a count made under an older rule would stay off by the same amount
 * forever. When the rule changes, each chapter's count is made again from its text on start,
 * before any request: a count is derived, not written by anyone, so no rev moves and nothing is
 * sent to apps (they recount their own copies: packages/sync-client word-rule.ts). The writing
 * statistics keep what they recorded; the first save under the new rule counts only the words it
 * changed (both texts are counted by the new rule).
 *
 * Idempotent: several instances starting together on PostgreSQL may both recount, with the same result.
 */
import type { Kysely } from 'kysely';
import { WORD_RULE_VERSION, chapterWordCount } from '@chronicler/schema';
import type { DB } from '../db/tables.ts';

const STATE_NAME = 'word_rule';
/** Chapters read per round trip: a few MB of text at most. */
const PAGE = 200;

/** Answers how many chapters' counts changed (0 when the stored counts are already the current rule's). */
export async function recountForWordRule(db: Kysely<DB>): Promise<number> {
  const state = await db.selectFrom('syncState').select('value').where('name', '=', STATE_NAME).executeTakeFirst();
  if (state && Number(state.value) === WORD_RULE_VERSION) return 0;
  let changed = 0;
  let after = '';
  for (;;) {
    const page = await db.selectFrom('chapters').select(['id', 'content', 'wordCount']).where('id', '>', after).orderBy('id').limit(PAGE).execute();
    if (page.length === 0) break;
    for (const chapter of page) {
      const count = chapterWordCount(chapter.content);
      if (count === Number(chapter.wordCount)) continue;
      await db.updateTable('chapters').set({ wordCount: count }).where('id', '=', chapter.id).execute();
      changed++;
    }
    after = page[page.length - 1]!.id;
  }
  await db
    .insertInto('syncState')
    .values({ name: STATE_NAME, value: WORD_RULE_VERSION })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: WORD_RULE_VERSION }))
    .execute();
  return changed;
}
