/**
 * The manuscript model every export (and the backup's readable Markdown copy) is written from:
 * books in order → chapters in order → blocks (paragraphs and scene breaks). Pure, so the browser's
 * exports and the server's backups read the text the same way.
 *
 * Chapter text is marked prose, one paragraph per line (docs/decisions/0009-chapter-markup.md):
 * a paragraph block carries its styled runs, read once here, so every renderer prints the same
 * emphasis. Blank lines separate nothing extra: runs of them collapse, so no export double-spaces
 * wrongly. A line that is only a scene-break marker (`***`, `* * *`, `#`, `~`, `§`…) becomes a
 * scene break. Text is never rewritten: curly quotes, dashes and every other character pass through.
 */
import type { Book, Chapter, Series } from './entities.ts';
import { type Run, parseParagraph } from './markup/index.ts';
import { byPosition } from './positions.ts';

export type ManuscriptBlock =
  | {
      readonly kind: 'paragraph';
      /** What the reader reads (markers and escapes removed). */
      readonly text: string;
      /** The same text as styled runs (italic, bold). */
      readonly runs: readonly Run[];
      /** First paragraph of its chapter or scene (no indent in book layouts). */
      readonly opening: boolean;
    }
  | { readonly kind: 'sceneBreak' };

/** A paragraph of marked text (docs/decisions/0009-chapter-markup.md): a chapter's line, a synopsis, notes. */
export function markedParagraph(line: string, opening: boolean): ManuscriptBlock {
  const runs = parseParagraph(line);
  return { kind: 'paragraph', text: runs.map((run) => run.text).join(''), runs, opening };
}

/** A paragraph of plain text (no markup: series-bible fields, titles). */
export function plainParagraph(text: string, opening: boolean): ManuscriptBlock {
  return { kind: 'paragraph', text, runs: text === '' ? [] : [{ text, italic: false, bold: false }], opening };
}

export interface ManuscriptChapter {
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly ManuscriptBlock[];
  readonly wordCount: number;
}

export interface ManuscriptBook {
  readonly id: string;
  readonly title: string;
  readonly chapters: readonly ManuscriptChapter[];
}

export interface Manuscript {
  readonly title: string;
  readonly author: string;
  readonly description: string;
  readonly books: readonly ManuscriptBook[];
  readonly wordCount: number;
}

/** A line made only of these characters (and spaces), at most 12 long, is a scene break. */
const SCENE_BREAK_LINE = /^[ \t]*(?:[*#~§•⁂—-][ \t]*){1,12}$/u;

/** The default marker written at a scene break (manuscript format uses a centred #). */
export const DEFAULT_SCENE_BREAK = '#';

export function isSceneBreakLine(line: string): boolean {
  // A lone dash line or "--" is a break; a line of words never matches.
  return SCENE_BREAK_LINE.test(line);
}

/** One chapter's text as blocks: paragraphs (trimmed of trailing spaces only) and scene breaks. */
export function chapterBlocks(content: string): ManuscriptBlock[] {
  const blocks: ManuscriptBlock[] = [];
  let opening = true;
  for (const raw of content.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/[ \t\u00a0]+$/u, '').replace(/^[ \t\u00a0]+/u, '');
    if (line === '') continue;
    if (isSceneBreakLine(line)) {
      // Breaks at the very start, or two in a row, carry nothing: keep one between scenes.
      if (blocks.length > 0 && blocks[blocks.length - 1]!.kind !== 'sceneBreak') blocks.push({ kind: 'sceneBreak' });
      opening = true;
      continue;
    }
    blocks.push(markedParagraph(line, opening));
    opening = false;
  }
  if (blocks.length > 0 && blocks[blocks.length - 1]!.kind === 'sceneBreak') blocks.pop();
  return blocks;
}

export interface ManuscriptInput {
  series: Pick<Series, 'title' | 'description'>;
  author: string;
  /** Books to include, any order; deleted ones are left out. */
  books: readonly Book[];
  /** Chapters of those books, any order; deleted ones and those of other books are left out. */
  chapters: readonly Chapter[];
  /** A one-book export is titled after the book. */
  title?: string;
}

export function buildManuscript(input: ManuscriptInput): Manuscript {
  const books = input.books.filter((b) => b.deletedAt === null).sort(byPosition);
  const byBook = new Map<string, Chapter[]>(books.map((b) => [b.id, []]));
  for (const chapter of input.chapters) {
    if (chapter.deletedAt === null) byBook.get(chapter.bookId)?.push(chapter);
  }
  let total = 0;
  const out = books.map((book): ManuscriptBook => ({
    id: book.id,
    title: book.title,
    chapters: byBook.get(book.id)!.sort(byPosition).map((c) => {
      // The stored count is the server's editor count of this very text (word-count.ts).
      total += c.wordCount;
      return { id: c.id, title: c.title, blocks: chapterBlocks(c.content), wordCount: c.wordCount };
    }),
  }));
  return {
    title: input.title ?? input.series.title,
    author: input.author,
    description: input.series.description,
    books: out,
    wordCount: total,
  };
}

/**
 * The word count on a manuscript's title page, rounded the usual way: to the nearest 100 below
 * 17,500 words (short fiction), to the nearest 500 up to 40,000, to the nearest 1,000 above.
 */
export function roundedWordCount(words: number): number {
  const step = words < 17_500 ? 100 : words < 40_000 ? 500 : 1_000;
  return Math.max(step, Math.round(words / step) * step);
}

/** "about 98,000 words" */
export function wordCountLine(words: number): string {
  return `about ${roundedWordCount(words).toLocaleString('en-US')} words`;
}

// ---------------------------------------------------------------------------------------------
// Text renderers (shared: the browser's exports and the backup's readable copy)

export interface TextRenderOptions {
  sceneBreak?: string;
}

/** Escapes what Markdown would read as markup inside a paragraph; the text stays as typed. */
function markdownInline(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, '\\$1');
}

/** Escapes what Markdown would read as a block (heading, list, quote, rule) at a paragraph's start. */
function markdownBlockStart(escaped: string): string {
  // A digit cannot be escaped in CommonMark: an ordered-list marker is broken at its dot instead.
  return escaped.replace(/^(\d+)([.)]\s)/, '$1\\$2').replace(/^(#{1,6}\s|[-+]\s|>|=+$|-+$)/, '\\$1');
}

const MARKDOWN_EMPHASIS = (run: Run) => (run.bold ? '**' : '') + (run.italic ? '*' : '');

/**
 * A paragraph's runs as Markdown: `*italic*`, `**bold**`, `***both***`, everything else escaped.
 * Runs never start or end on whitespace where emphasised (markup normalises them), so each
 * delimiter is one CommonMark reads as opening or closing.
 */
function markdownParagraph(runs: readonly Run[]): string {
  const body = runs.map((run) => {
    const marker = MARKDOWN_EMPHASIS(run);
    const text = markdownInline(run.text);
    if (marker === '') return text;
    // Whitespace at an emphasis's edge cannot be inside the delimiters (CommonMark flanking rules).
    const [, lead, core, trail] = /^(\s*)(.*?)(\s*)$/su.exec(text)!;
    return core === '' ? text : `${lead}${marker}${core}${marker}${trail}`;
  }).join('');
  return markdownBlockStart(body);
}

export function manuscriptToMarkdown(m: Manuscript, options: TextRenderOptions = {}): string {
  const sceneBreak = options.sceneBreak?.trim() || '* * *';
  // A marker Markdown would read as a rule or heading is still a scene break to a reader: keep it centred-looking.
  const breakLine = sceneBreak === '#' ? '\\#' : sceneBreak.replace(/([\\`*_#])/g, '\\$1');
  const lines: string[] = [`# ${m.title}`, '', `*by ${m.author}*`, ''];
  const manyBooks = m.books.length > 1;
  for (const book of m.books) {
    if (manyBooks) lines.push(`## ${book.title}`, '');
    for (const chapter of book.chapters) {
      lines.push(`${manyBooks ? '###' : '##'} ${chapter.title}`, '');
      for (const block of chapter.blocks) {
        lines.push(block.kind === 'sceneBreak' ? breakLine : markdownParagraph(block.runs), '');
      }
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * Plain text is the words as the reader reads them: emphasis is left out (docs/web.md, "Export"),
 * because any mark added (`_x_`, `*x*`) would be characters the author never typed.
 */
export function manuscriptToPlainText(m: Manuscript, options: TextRenderOptions = {}): string {
  const sceneBreak = options.sceneBreak?.trim() || DEFAULT_SCENE_BREAK;
  // Paragraphs are separated by one blank line; headings by the same, never more.
  const lines: string[] = [m.title, `by ${m.author}`];
  for (const book of m.books) {
    if (m.books.length > 1) lines.push(book.title.toUpperCase());
    for (const chapter of book.chapters) {
      lines.push(chapter.title);
      for (const block of chapter.blocks) lines.push(block.kind === 'sceneBreak' ? sceneBreak : block.text);
    }
  }
  return `${lines.join('\n\n')}\n`;
}
