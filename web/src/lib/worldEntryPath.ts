/**
 * Where a world entry opens: its category's tab of the World page, with the entry's dialog open
 * (docs/decisions/0020-world-entries.md). The World page and the other side of a link (a
 * character's, a place's dialog) share it.
 */
import type { WorldCategory } from '@chronicler/schema';

/** The World page's tab of each category (spec 001 §2's tab values). */
export const WORLD_TAB_OF: Readonly<Record<WorldCategory, string>> = {
  culture: 'cultures',
  magicSystem: 'magic',
  floraFauna: 'flora',
  technology: 'technology',
  politics: 'politics',
};

export function worldEntryPath(entry: { id: string; category: WorldCategory }): string {
  return `/world?tab=${WORLD_TAB_OF[entry.category]}&entry=${entry.id}`;
}
