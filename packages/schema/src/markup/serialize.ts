/**
 * Writing chapter markup: styled runs → marked text that reads back (parse.ts) as the same runs.
 * Paste, import and the editor's Bold/Italic toggles write through here; docs/decisions/0009-chapter-markup.md.
 *
 * What cannot be written is normalised first (`normalizeRuns`): emphasis never starts or ends on
 * whitespace (a delimiter next to a space cannot open or close) and never covers a line break, so
 * those characters are plain. `parseMarkup(serializeRuns(runs))` equals `normalizeRuns(runs)`
 * (markup.test.ts holds it for any runs).
 */
import { appendRun, parseParagraph, type Run } from './parse.ts';

type Mark = 'italic' | 'bold';
const MARKER: Record<Mark, string> = { italic: '*', bold: '**' };

function has(run: Run, mark: Mark): boolean {
  return mark === 'italic' ? run.italic : run.bold;
}

/** Runs as they can be written: emphasis trimmed of edge whitespace, line breaks plain, equal styles merged. */
export function normalizeRuns(runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    if (!run.italic && !run.bold) {
      appendRun(out, run);
      continue;
    }
    const lines = run.text.split('\n');
    lines.forEach((line, i) => {
      const lead = /^\s*/u.exec(line)![0];
      const core = line.slice(lead.length);
      const trail = /\s*$/u.exec(core)![0];
      appendRun(out, { text: lead, italic: false, bold: false });
      appendRun(out, { text: core.slice(0, core.length - trail.length), italic: run.italic, bold: run.bold });
      appendRun(out, { text: trail, italic: false, bold: false });
      if (i < lines.length - 1) appendRun(out, { text: '\n', italic: false, bold: false });
    });
  }
  return out;
}

/**
 * A run's characters as markup. `*` is always escaped; `\` only where it would otherwise start an
 * escape (before `*` or `\`, or last in the run, where a marker or an escape may follow), so an
 * author's lone backslash stays one character in the source.
 */
export function escapeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '*') out += '\\*';
    else if (char === '\\') {
      const next = text[i + 1];
      out += next === undefined || next === '*' || next === '\\' ? '\\\\' : '\\';
    } else out += char;
  }
  return out;
}

/**
 * Each run wrapped on its own (`**a***b*`): adjacent markers merge into one asterisk run, which the
 * reader splits left to right — the closer's part first, the rest opening. Reads back where the
 * nested form cannot (a closer-capable run between two emphasised runs).
 */
function serializeFlat(runs: readonly Run[]): string {
  return runs.map((run) => {
    const marker = (run.bold ? '**' : '') + (run.italic ? '*' : '');
    return marker + escapeText(run.text) + marker;
  }).join('');
}

/** Index of the first run, from `from` on, that lacks `mark` (runs.length when none does). */
function endOf(runs: readonly Run[], from: number, mark: Mark): number {
  let i = from;
  while (i < runs.length && has(runs[i]!, mark)) i++;
  return i;
}

/** One paragraph's normalised runs (no line breaks) as nested markup (`**bold *both* bold**`). */
function serializeNested(runs: readonly Run[]): string {
  let out = '';
  // Open marks, outermost first: a mark that lasts longer is opened outside one that ends sooner,
  // so most changes of style close only the innermost mark.
  const open: Mark[] = [];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    // Close what this run lacks; a mark under it that stays is closed and opened again.
    const lacking = open.findIndex((mark) => !has(run, mark));
    if (lacking >= 0) {
      for (let k = open.length - 1; k >= lacking; k--) out += MARKER[open[k]!];
      open.length = lacking;
    }
    const wanted = (['italic', 'bold'] as const)
      .filter((mark) => has(run, mark) && !open.includes(mark))
      .sort((a, b) => endOf(runs, i, b) - endOf(runs, i, a));
    // A new mark that outlasts one already open goes outside it: close and reopen the shorter.
    if (wanted.length > 0 && open.length > 0) {
      const reopen = open.filter((mark) => endOf(runs, i, mark) < endOf(runs, i, wanted[0]!));
      if (reopen.length > 0) {
        const keep = open.filter((mark) => !reopen.includes(mark));
        for (let k = open.length - 1; k >= 0; k--) if (reopen.includes(open[k]!)) out += MARKER[open[k]!];
        open.length = 0;
        open.push(...keep);
        wanted.push(...reopen);
        wanted.sort((a, b) => endOf(runs, i, b) - endOf(runs, i, a));
      }
    }
    for (const mark of wanted) {
      out += MARKER[mark];
      open.push(mark);
    }
    out += escapeText(run.text);
  }
  for (let k = open.length - 1; k >= 0; k--) out += MARKER[open[k]!];
  return out;
}

let fellBack = 0;
/** Paragraphs written without their emphasis so far (0: markup.test.ts holds it). */
export function paragraphsWrittenPlain(): number {
  return fellBack;
}

function sameRuns(a: readonly Run[], b: readonly Run[]): boolean {
  return a.length === b.length && a.every((run, i) => run.text === b[i]!.text && run.italic === b[i]!.italic && run.bold === b[i]!.bold);
}

/** Runs (any, with line breaks) as marked text. */
export function serializeRuns(runs: readonly Run[]): string {
  const lines: Run[][] = [[]];
  for (const run of normalizeRuns(runs)) {
    const parts = run.text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      appendRun(lines[lines.length - 1]!, { text: part, italic: run.italic, bold: run.bold });
    });
  }
  return lines
    .map((line) => {
      // The writer is checked against the reader: the nested form reads best, the flat one covers
      // what nesting cannot say. A shape neither can write would be a bug, but the author keeps
      // every word — emphasis dropped, never text.
      for (const written of [serializeNested(line), serializeFlat(line)]) {
        if (sameRuns(parseParagraph(written), line)) return written;
      }
      fellBack++;
      return escapeText(line.map((run) => run.text).join(''));
    })
    .join('\n');
}

/** Plain text (no markup meant) as markup that reads back as exactly that text. */
export function plainToMarkup(text: string): string {
  return text
    .split('\n')
    .map((line) => escapeText(line))
    .join('\n');
}
