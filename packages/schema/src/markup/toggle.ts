/**
 * Bold and Italic as the editor's commands: toggle a mark over a selection of marked text, or over
 * the word at the caret. Pure, so the keyboard shortcut, the toolbar button and the tests share one
 * rule (docs/decisions/0009-chapter-markup.md). The result is one change (the affected lines
 * rewritten) and the selection to put back, so the editor dispatches it as one undo step.
 */
import { appendRun, segmentParagraph, type Run, type Segment } from './parse.ts';
import { serializeRuns } from './serialize.ts';

export type EmphasisMark = 'italic' | 'bold';

export interface EmphasisEdit {
  /** The source range replaced (whole lines) and its replacement. */
  readonly from: number;
  readonly to: number;
  readonly insert: string;
  /** The selection afterwards, in the new text. */
  readonly selectionFrom: number;
  readonly selectionTo: number;
}

/** A line's visible text, with the source offset of each visible character. */
interface Visible {
  readonly runs: Run[];
  readonly text: string;
  /** sourceOf[v] = source offset of visible character v; sourceOf[text.length] = line length. */
  readonly sourceOf: number[];
  readonly segments: Segment[];
}

function visibleOf(line: string): Visible {
  const segments = segmentParagraph(line);
  const runs: Run[] = [];
  const sourceOf: number[] = [];
  let text = '';
  for (const segment of segments) {
    if (segment.kind !== 'text') continue;
    const piece = line.slice(segment.from, segment.to);
    for (let k = 0; k < piece.length; k++) sourceOf.push(segment.from + k);
    text += piece;
    runs.push({ text: piece, italic: segment.italic, bold: segment.bold });
  }
  sourceOf.push(line.length);
  return { runs, text, sourceOf, segments };
}

/** The visible offset at a source offset: characters of markers and escapes before it do not count. */
function toVisible(visible: Visible, source: number): number {
  let v = 0;
  while (v < visible.text.length && visible.sourceOf[v]! < source) v++;
  return v;
}

/** Where visible offset v sits in the source: for a start, after the markers that open there; for an end, before those that close. */
function toSource(visible: Visible, v: number, side: 'start' | 'end'): number {
  if (side === 'start') return visible.sourceOf[v]!;
  return v === 0 ? visible.sourceOf[0]! : visible.sourceOf[v - 1]! + 1;
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}'’_-]/u;

/** The word around visible offset v, or an empty range at v. */
function wordAt(text: string, v: number): [number, number] {
  let start = v;
  let end = v;
  while (start > 0 && WORD_CHAR.test(text[start - 1]!)) start--;
  while (end < text.length && WORD_CHAR.test(text[end]!)) end++;
  return [start, end];
}

function marked(run: Run, mark: EmphasisMark): boolean {
  return mark === 'italic' ? run.italic : run.bold;
}

/** Runs with `mark` set (or cleared) on visible [from, to). */
function restyle(runs: readonly Run[], from: number, to: number, mark: EmphasisMark, on: boolean): Run[] {
  const out: Run[] = [];
  let at = 0;
  for (const run of runs) {
    const end = at + run.text.length;
    const cuts = [at, Math.min(Math.max(from, at), end), Math.min(Math.max(to, at), end), end];
    for (let k = 0; k < 3; k++) {
      const piece = run.text.slice(cuts[k]! - at, cuts[k + 1]! - at);
      const inside = k === 1;
      appendRun(out, inside ? { ...run, text: piece, [mark]: on } : { ...run, text: piece });
    }
    at = end;
  }
  return out;
}

interface LineRange {
  readonly start: number;
  readonly line: string;
  readonly visible: Visible;
  readonly from: number;
  readonly to: number;
}

/** Toggles `mark` over [from, to) of `text` (a caret toggles the word it is in). */
export function toggleEmphasis(text: string, from: number, to: number, mark: EmphasisMark): EmphasisEdit {
  const [start, end] = from <= to ? [from, to] : [to, from];
  const firstLine = text.lastIndexOf('\n', start - 1) + 1;
  let lastLineEnd = text.indexOf('\n', end);
  if (lastLineEnd < 0) lastLineEnd = text.length;
  const lines: LineRange[] = [];
  let at = firstLine;
  for (const line of text.slice(firstLine, lastLineEnd).split('\n')) {
    const visible = visibleOf(line);
    const vFrom = toVisible(visible, Math.max(start - at, 0));
    const vTo = toVisible(visible, Math.min(end - at, line.length));
    lines.push({ start: at, line, visible, from: vFrom, to: vTo });
    at += line.length + 1;
  }

  let caret: number | undefined;
  if (start === end) {
    const only = lines[0]!;
    caret = only.from;
    const [wordStart, wordEnd] = wordAt(only.visible.text, only.from);
    if (wordStart === wordEnd) {
      // No word here: open and close the mark at the caret, so what is typed next is emphasised —
      // unless the new markers would pair with an asterisk elsewhere on the line and change how
      // the rest of it reads (a stray `*` before the caret): then nothing changes.
      const marker = mark === 'italic' ? '*' : '**';
      const at = start - only.start;
      const line = only.line.slice(0, at) + marker + marker + only.line.slice(at);
      const seen = visibleOf(line).text;
      const before = only.visible.text;
      const caretV = only.from;
      if (seen !== before && seen !== before.slice(0, caretV) + marker + marker + before.slice(caretV)) {
        return { from: start, to: start, insert: '', selectionFrom: start, selectionTo: start };
      }
      return { from: start, to: start, insert: marker + marker, selectionFrom: start + marker.length, selectionTo: start + marker.length };
    }
    lines[0] = { ...only, from: wordStart, to: wordEnd };
  }

  // Remove the mark when everything selected that can carry it (not whitespace) already has it.
  let everyMarked = true;
  let anyText = false;
  for (const range of lines) {
    let v = 0;
    for (const run of range.visible.runs) {
      const a = Math.max(range.from, v);
      const b = Math.min(range.to, v + run.text.length);
      if (b > a && /\S/u.test(run.text.slice(a - v, b - v))) {
        anyText = true;
        if (!marked(run, mark)) everyMarked = false;
      }
      v += run.text.length;
    }
  }
  const on = !(anyText && everyMarked);

  const rewritten: string[] = [];
  let selectionFrom = start;
  let selectionTo = end;
  let offset = firstLine;
  lines.forEach((range, i) => {
    const line = range.from < range.to ? serializeRuns(restyle(range.visible.runs, range.from, range.to, mark, on)) : range.line;
    const after = range.line === line ? range.visible : visibleOf(line);
    if (i === 0) selectionFrom = offset + toSource(after, range.from, 'start');
    if (i === lines.length - 1) selectionTo = offset + toSource(after, range.to, range.from < range.to ? 'end' : 'start');
    if (caret !== undefined) {
      // A caret stays a caret, inside the word's emphasis when it stood at the word's end.
      selectionFrom = selectionTo = offset + toSource(after, caret, caret === range.to && caret > range.from ? 'end' : 'start');
    }
    rewritten.push(line);
    offset += line.length + 1;
  });
  return { from: firstLine, to: lastLineEnd, insert: rewritten.join('\n'), selectionFrom, selectionTo };
}

/**
 * The marks in force at a source offset (for the toolbar's pressed state): those of the text the
 * caret is in, or — at a closing marker or the line's end — of the text it follows, which typing extends.
 */
export function marksAt(line: string, offset: number): { italic: boolean; bold: boolean } {
  const texts = segmentParagraph(line).filter((segment) => segment.kind === 'text');
  const found = texts.find((segment) => segment.from <= offset && offset < segment.to) ?? texts.find((segment) => segment.to === offset);
  return { italic: found?.italic ?? false, bold: found?.bold ?? false };
}
