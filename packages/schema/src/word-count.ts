/**
 * A chapter's stored `wordCount`: the word count (rules.ts countWords) of its visible text, derived by
 * the server on every write and by the client for its optimistic rows, recounting only lines it
 * has not seen lately. Counting runs Unicode-property regexes over the whole text
 * (~170 µs per 1,000 words), and a save usually changes one paragraph of many. A line break is
 * whitespace, so no word spans two lines: the text's count is the sum of its lines' counts.
 * Words are counted in the text the author reads (markup/): `un*believ*able` is one word.
 */
import { mayHoldMarkup, visibleText } from './markup/parse.ts';
import { countWords } from './rules.ts';

/** Lines shorter than this are counted directly: remembering them costs about as much. */
const MIN_REMEMBERED_LENGTH = 64;
/** Lines remembered at most (a few MB of paragraphs); the oldest go first. */
const MAX_REMEMBERED_LINES = 5000;

const lineCounts = new Map<string, number>();

/**
 * A line as a string of its own, to be remembered. A line split out of a text is a slice that keeps
 * the whole text alive (V8's sliced strings), so remembering the lines themselves kept up to
 * MAX_REMEMBERED_LINES whole chapter texts in memory: 11 KB per save of a 1,000-word chapter on the
 * server, a whole chapter per new line for a long chapter in the editor's tab. Parsing makes a new
 * string; a concatenation or a slice would still point into the text.
 */
function detached(line: string): string {
  return JSON.parse(JSON.stringify(line)) as string;
}

/** One line's words as the author reads them (its markers and escapes are not words); the editor counts its changed lines with it. */
export function paragraphWordCount(line: string): number {
  return countWords(mayHoldMarkup(line) ? visibleText(line) : line);
}

export function chapterWordCount(text: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    // The blank lines between paragraphs: half the lines of most chapters.
    if (line === '') continue;
    if (line.length < MIN_REMEMBERED_LENGTH) {
      total += paragraphWordCount(line);
      continue;
    }
    let count = lineCounts.get(line);
    if (count === undefined) {
      count = paragraphWordCount(line);
      if (lineCounts.size >= MAX_REMEMBERED_LINES) lineCounts.delete(lineCounts.keys().next().value!);
      lineCounts.set(detached(line), count);
    }
    total += count;
  }
  return total;
}
