/**
 * A Markdown paragraph's inline text as chapter markup (docs/decisions/0009-chapter-markup.md):
 * `*x*` and `_x_` italic, `**x**` and `__x__` bold; Markdown's backslash escapes undone, so `\*` is
 * an asterisk the author typed and stays one. Everything else (links, code spans) stays as typed.
 *
 * `_` is not a delimiter of the chapter markup: an underscore run that Markdown could read as
 * emphasis (CommonMark's intraword rule: not between two letters or digits, as in snake_case) is
 * read as asterisks, and where it pairs with nothing it stays the underscore the author typed.
 */
import { type Run, appendRun, segmentParagraph } from './markup/parse.ts';
import { escapeText, serializeRuns } from './markup/serialize.ts';

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const ALPHANUMERIC = /[\p{L}\p{N}]/u;
const WHITESPACE = /\s/u;

/** The paragraph with Markdown's escapes resolved into the markup's, and the `_` runs that may pair turned into `*`. */
function toAsteriskSource(markdown: string): { source: string; fromUnderscore: Set<number> } {
  let source = '';
  const fromUnderscore = new Set<number>();
  for (let i = 0; i < markdown.length; ) {
    const char = markdown[i]!;
    if (char === '\\' && i + 1 < markdown.length && ASCII_PUNCTUATION.test(markdown[i + 1]!)) {
      // `\*` and `\\` mean the same in the markup; any other escaped character is itself.
      source += escapeText(markdown[i + 1]!);
      i += 2;
      continue;
    }
    if (char === '_') {
      let end = i;
      while (markdown[end] === '_') end++;
      const before = markdown[i - 1];
      const after = markdown[end];
      const opens = after !== undefined && !WHITESPACE.test(after) && !(before !== undefined && ALPHANUMERIC.test(before));
      const closes = before !== undefined && !WHITESPACE.test(before) && !(after !== undefined && ALPHANUMERIC.test(after));
      for (let k = i; k < end; k++) {
        if (opens || closes) fromUnderscore.add(source.length);
        source += opens || closes ? '*' : '_';
      }
      i = end;
      continue;
    }
    source += char;
    i++;
  }
  return { source, fromUnderscore };
}

/** One Markdown paragraph (one line) as styled runs. */
export function markdownRuns(markdown: string): Run[] {
  const { source, fromUnderscore } = toAsteriskSource(markdown);
  const runs: Run[] = [];
  for (const segment of segmentParagraph(source)) {
    if (segment.kind !== 'text') continue;
    let text = '';
    // An underscore read as a delimiter that paired with nothing is the underscore typed.
    for (let at = segment.from; at < segment.to; at++) text += fromUnderscore.has(at) ? '_' : source[at];
    appendRun(runs, { text, italic: segment.italic, bold: segment.bold });
  }
  return runs;
}

/** One Markdown paragraph as chapter markup. */
export function markdownToMarkup(markdown: string): string {
  return serializeRuns(markdownRuns(markdown));
}
