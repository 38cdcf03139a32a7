/**
 * Reading chapter markup: one paragraph (one line) of marked text → segments with their source
 * ranges, and → styled runs. The syntax and why it is this one: docs/decisions/0009-chapter-markup.md.
 *
 *   *italic*   **bold**   ***both***   \*  (a literal asterisk)   \\  (a literal backslash)
 *
 * Emphasis never crosses a line (a paragraph), so the line-based three-way merge keeps two
 * collaborators' emphasis in different paragraphs. Delimiters pair as CommonMark pairs `*` runs
 * (its "process emphasis" algorithm: a closer takes the nearest opener, two asterisks at a time
 * while both have two; openers_bottom keeps a line of many asterisks linear), simplified twice: a
 * run can open when the next character is not whitespace and close when the previous one is not —
 * punctuation plays no part, so `*"Go!"*` and `un*believ*able` both work — and there is no "rule
 * of 3", so any emphasis the editor applies can be written back (serialize.ts; markup.test.ts). Whatever does not pair stays a literal character: a lone `*` never swallows the text
 * after it, and a run of four or more asterisks that pairs with nothing is text as typed.
 */

/** A piece of a paragraph as the author reads it. */
export interface Run {
  readonly text: string;
  readonly italic: boolean;
  readonly bold: boolean;
}

/**
 * A piece of a paragraph's source: `text` is shown (styled), `marker` is an emphasis delimiter the
 * reader never sees, `escape` is the backslash of `\*` or `\\` (the character after it is `text`).
 */
export interface Segment {
  readonly from: number;
  readonly to: number;
  readonly kind: 'text' | 'marker' | 'escape';
  readonly italic: boolean;
  readonly bold: boolean;
}

interface Delimiter {
  /** Source offset of the run's first asterisk. */
  readonly start: number;
  readonly length: number;
  readonly canOpen: boolean;
  readonly canClose: boolean;
  /** Asterisks not yet used, from the left end (`left`) and the right end (`right`). */
  left: number;
  right: number;
  /** Still in the delimiter stack (CommonMark removes the openers a match skips over). */
  active: boolean;
}

const ASTERISK = 42;
const BACKSLASH = 92;

function isWhitespace(char: string | undefined): boolean {
  return char === undefined || /\s/u.test(char);
}

/** `\*` and `\\` are escapes; a backslash before anything else is itself. */
function isEscape(line: string, i: number): boolean {
  if (line.charCodeAt(i) !== BACKSLASH) return false;
  const next = line.charCodeAt(i + 1);
  return next === ASTERISK || next === BACKSLASH;
}

/** Asterisk runs, with escapes skipped. */
function delimitersOf(line: string): Delimiter[] {
  const delimiters: Delimiter[] = [];
  for (let i = 0; i < line.length; i++) {
    if (isEscape(line, i)) {
      i++;
      continue;
    }
    if (line.charCodeAt(i) !== ASTERISK) continue;
    let end = i;
    while (line.charCodeAt(end) === ASTERISK) end++;
    const length = end - i;
    delimiters.push({
      start: i,
      length,
      // The character before an escaped asterisk's run is that asterisk: not whitespace.
      canOpen: !isWhitespace(line[end]),
      canClose: !isWhitespace(i > 0 ? line[i - 1] : undefined),
      left: 0,
      right: length,
      active: true,
    });
    i = end - 1;
  }
  return delimiters;
}

interface Change {
  /** Source offset of the first asterisk of the used pair or single. */
  readonly at: number;
  readonly width: number;
  readonly italic: number;
  readonly bold: number;
}

/** Pairs the delimiters: each pair becomes two changes of style (on, then off), at their asterisks. */
function pair(delimiters: Delimiter[]): Change[] {
  const changes: Change[] = [];
  // openers_bottom: no opener at or below this index can match any later closer.
  let floor = -1;
  for (let c = 0; c < delimiters.length; c++) {
    const closer = delimiters[c]!;
    if (!closer.canClose) continue;
    while (closer.right > closer.left) {
      const remaining = closer.right - closer.left;
      let o = c - 1;
      for (; o > floor; o--) {
        const opener = delimiters[o]!;
        if (opener.active && opener.canOpen && opener.right > opener.left) break;
      }
      if (o <= floor) {
        floor = c - 1;
        if (!closer.canOpen) closer.active = false;
        break;
      }
      const opener = delimiters[o]!;
      const use = opener.right - opener.left >= 2 && remaining >= 2 ? 2 : 1;
      opener.right -= use;
      const openAt = opener.start + opener.right;
      const closeAt = closer.start + closer.left;
      closer.left += use;
      const italic = use === 1 ? 1 : 0;
      const bold = use === 2 ? 1 : 0;
      changes.push({ at: openAt, width: use, italic, bold }, { at: closeAt, width: use, italic: -italic, bold: -bold });
      for (let between = o + 1; between < c; between++) delimiters[between]!.active = false;
    }
  }
  return changes.sort((a, b) => a.at - b.at);
}

/** The paragraph's source as segments, in order, covering every character. */
export function segmentParagraph(line: string): Segment[] {
  const segments: Segment[] = [];
  const changes = line.includes('*') ? pair(delimitersOf(line)) : [];
  let italic = 0;
  let bold = 0;
  let next = 0;
  let textFrom = 0;
  const push = (from: number, to: number, kind: Segment['kind']) => {
    if (to > from) segments.push({ from, to, kind, italic: italic > 0, bold: bold > 0 });
  };
  for (let i = 0; i < line.length; ) {
    const change = changes[next];
    if (change !== undefined && change.at === i) {
      push(textFrom, i, 'text');
      // A closing change ends the style before its marker is drawn; an opening one after.
      if (change.italic < 0 || change.bold < 0) {
        italic += change.italic;
        bold += change.bold;
        push(i, i + change.width, 'marker');
      } else {
        push(i, i + change.width, 'marker');
        italic += change.italic;
        bold += change.bold;
      }
      i += change.width;
      textFrom = i;
      next++;
      continue;
    }
    if (isEscape(line, i)) {
      push(textFrom, i, 'text');
      push(i, i + 1, 'escape');
      textFrom = i + 1;
      i += 2;
      continue;
    }
    i++;
  }
  push(textFrom, line.length, 'text');
  return segments;
}

/** The paragraph as the author reads it: styled runs, adjacent runs of one style merged. */
export function parseParagraph(line: string): Run[] {
  const runs: Run[] = [];
  for (const segment of segmentParagraph(line)) {
    if (segment.kind !== 'text') continue;
    appendRun(runs, { text: line.slice(segment.from, segment.to), italic: segment.italic, bold: segment.bold });
  }
  return runs;
}

/** Appends a run, merging it into the last one when their styles agree; empty runs vanish. */
export function appendRun(runs: Run[], run: Run): void {
  if (run.text === '') return;
  const last = runs[runs.length - 1];
  if (last !== undefined && last.italic === run.italic && last.bold === run.bold) {
    runs[runs.length - 1] = { text: last.text + run.text, italic: last.italic, bold: last.bold };
  } else runs.push(run);
}

/** A whole text (paragraphs on lines) as runs; line breaks are plain. */
export function parseMarkup(text: string): Run[] {
  const runs: Run[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    for (const run of parseParagraph(line)) appendRun(runs, run);
    if (i < lines.length - 1) appendRun(runs, { text: '\n', italic: false, bold: false });
  });
  return runs;
}

/** Whether a text holds anything the markup reads (no asterisk and no backslash: it is its own visible text). */
export function mayHoldMarkup(text: string): boolean {
  return text.includes('*') || text.includes('\\');
}

/** What the author reads: the text without markers and escapes. */
export function visibleText(text: string): string {
  if (!mayHoldMarkup(text)) return text;
  return text
    .split('\n')
    .map((line) => {
      if (!mayHoldMarkup(line)) return line;
      let out = '';
      for (const segment of segmentParagraph(line)) if (segment.kind === 'text') out += line.slice(segment.from, segment.to);
      return out;
    })
    .join('\n');
}

/** A text's visible text and where each visible character lies in the source. */
export interface VisibleMap {
  readonly text: string;
  /** sourceOf[v] = source offset of visible character v; sourceOf[text.length] = the source's length. */
  readonly sourceOf: Int32Array;
}

/**
 * The visible text with its way back to the source: what reads the visible text (the companion's
 * analysis) and must point at source words (highlights in the editor) maps its offsets through here.
 */
export function visibleTextMap(text: string): VisibleMap {
  if (!mayHoldMarkup(text)) {
    const sourceOf = new Int32Array(text.length + 1);
    for (let i = 0; i <= text.length; i++) sourceOf[i] = i;
    return { text, sourceOf };
  }
  const pieces: string[] = [];
  const offsets: number[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (lineStart > 0) {
      pieces.push('\n');
      offsets.push(lineStart - 1);
    }
    const segments = mayHoldMarkup(line) ? segmentParagraph(line) : [{ from: 0, to: line.length, kind: 'text' as const }];
    for (const segment of segments) {
      if (segment.kind !== 'text') continue;
      pieces.push(line.slice(segment.from, segment.to));
      for (let k = segment.from; k < segment.to; k++) offsets.push(lineStart + k);
    }
    lineStart += line.length + 1;
  }
  offsets.push(text.length);
  return { text: pieces.join(''), sourceOf: Int32Array.from(offsets) };
}

/** A visible range [from, to) as a source range: the start at its first character, the end after its last. */
export function sourceRange(map: VisibleMap, from: number, to: number): { from: number; to: number } {
  const start = map.sourceOf[Math.min(from, map.text.length)]!;
  const end = to > from ? map.sourceOf[Math.min(to, map.text.length) - 1]! + 1 : start;
  return { from: start, to: end };
}
