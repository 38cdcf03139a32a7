/**
 * Word counts that stay cheap on long chapters (docs/measurements.md#before-the-code: a 20,000-word
 * chapter must type at frame rate). The word rule (packages/schema rules.ts) never lets a word span
 * a line break, so the count of a text is the sum of the counts of its lines. After an edit only the lines it touched are counted again.
 * Words are the visible words: emphasis markers are not words (docs/decisions/0009-chapter-markup.md),
 * the same count as the schema's chapterWordCount.
 */
import type { ChangeSet, Text } from '@codemirror/state';
import { paragraphWordCount } from '@chronicler/schema';

/** Counts every line of a document (the word rule applied line by line). */
export function countDocWords(doc: Text): number {
  let total = 0;
  const lines = doc.iterLines();
  while (!lines.next().done) total += paragraphWordCount(lines.value);
  return total;
}

/**
 * The count after `changes` turned `before` into `after`, given the count of `before`: the lines
 * any change touched are subtracted as they were and added as they are. Lines no change touches
 * are the same lines on both sides (their text and both line breaks are untouched).
 */
export function recountWords(previous: number, before: Text, after: Text, changes: ChangeSet): number {
  const oldLines = new Set<number>();
  const newLines = new Set<number>();
  changes.iterChangedRanges((fromA, toA, fromB, toB) => {
    for (let n = before.lineAt(fromA).number, end = before.lineAt(toA).number; n <= end; n++) oldLines.add(n);
    for (let n = after.lineAt(fromB).number, end = after.lineAt(toB).number; n <= end; n++) newLines.add(n);
  });
  // A change over most of the text (paste over everything, undo of a big paste): count it whole.
  if (oldLines.size + newLines.size > after.lines) return countDocWords(after);
  let total = previous;
  for (const n of oldLines) total -= paragraphWordCount(before.line(n).text);
  for (const n of newLines) total += paragraphWordCount(after.line(n).text);
  return total;
}
