/**
 * A chapter's stored `wordCount`: the editor word count (countWordsEditor) of its text, derived by
 * the server on every write and by the client for its optimistic rows, recounting only lines it
 * has not seen lately. Counting runs Unicode-property regexes over the whole text
 * (~170 µs per 1,000 words), and a save usually changes one paragraph of many. A line break is
 * whitespace, so no word spans two lines: the text's count is the sum of its lines' counts.
 */
import { countWordsEditor } from './rules.ts';

/** Lines shorter than this are counted directly: remembering them costs about as much. */
const MIN_REMEMBERED_LENGTH = 64;
/** Lines remembered at most (a few MB of paragraphs); the oldest go first. */
const MAX_REMEMBERED_LINES = 5000;

const lineCounts = new Map<string, number>();

export function chapterWordCount(text: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    // The blank lines between paragraphs: half the lines of most chapters.
    if (line === '') continue;
    if (line.length < MIN_REMEMBERED_LENGTH) {
      total += countWordsEditor(line);
      continue;
    }
    let count = lineCounts.get(line);
    if (count === undefined) {
      count = countWordsEditor(line);
      if (lineCounts.size >= MAX_REMEMBERED_LINES) lineCounts.delete(lineCounts.keys().next().value!);
      lineCounts.set(line, count);
    }
    total += count;
  }
  return total;
}
