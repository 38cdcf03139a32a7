/**
 * A character's or location's book appearances must name books of its series (docs/spec-differences.md:
 * the series' own books in place of the spec's fixed 1 to 5). The spec's five stay valid in any
 * series, so no row written before is refused; a number past them needs a live book at that position.
 */
import { bookAppearanceMessage, bookAppearanceOutsideSeries, SPEC_BOOK_NUMBERS } from '@chronicler/schema';
import { type Db, listLive } from '../entities/queries.ts';
import { invalid } from './common.ts';

/** 422 naming the first number of `numbers` no book of `seriesId` has (beyond the spec's five). */
export async function assertBookAppearancesInSeries(db: Db, seriesId: string, numbers: readonly number[] | undefined): Promise<void> {
  // Nothing past the spec's five: nothing to look up.
  if (numbers === undefined || numbers.every((n) => n <= SPEC_BOOK_NUMBERS)) return;
  const books = await listLive(db, 'books', 'seriesId', seriesId, ['position', 'createdAt', 'id']);
  const outside = bookAppearanceOutsideSeries(numbers, books.map((b) => b.position));
  if (outside !== null) throw invalid(bookAppearanceMessage(outside), 'bookAppearances');
}
