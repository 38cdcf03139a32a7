/**
 * Importing a manuscript (beyond the spec; docs/web.md#exports-and-imports): a document's headings
 * and paragraphs split into chapters. The chapter level is the highest heading level that occurs
 * more than once (a lone top heading is the book's title); text before the first chapter heading is
 * kept as its own chapter, never dropped. Paragraph text is marked text
 * (docs/decisions/0009-chapter-markup.md), kept as written.
 */
import { LIMITS } from './entities.ts';
import { markdownRuns, markdownToMarkup } from './markdown-emphasis.ts';
import { plainToMarkup } from './markup/serialize.ts';

/** A heading's text is plain (a title); a paragraph's is marked text. */
export type ImportBlock = { kind: 'heading'; level: number; text: string } | { kind: 'paragraph'; text: string };

export interface ImportedChapter {
  title: string;
  /** One paragraph per line, as the editor stores text. */
  content: string;
}

export interface ImportedManuscript {
  /** The lone top heading, when the document has one above its chapter headings. */
  title: string | null;
  chapters: ImportedChapter[];
}

/** The title given to text that comes before the first chapter heading. */
export const OPENING_CHAPTER_TITLE = 'Opening';

const clampTitle = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, LIMITS.title);

export function splitIntoChapters(blocks: readonly ImportBlock[]): ImportedManuscript {
  const counts = new Map<number, number>();
  for (const b of blocks) if (b.kind === 'heading' && b.text.trim()) counts.set(b.level, (counts.get(b.level) ?? 0) + 1);
  const levels = [...counts.keys()].sort((a, b) => a - b);
  // The chapter level: the highest one used twice or more; else the only heading level there is.
  const chapterLevel = levels.find((l) => counts.get(l)! > 1) ?? levels[levels.length - 1] ?? null;
  const titleLevel = levels.find((l) => chapterLevel !== null && l < chapterLevel && counts.get(l) === 1) ?? null;

  let title: string | null = null;
  const chapters: { title: string; lines: string[] }[] = [];
  let current: { title: string; lines: string[] } | null = null;
  for (const block of blocks) {
    if (block.kind === 'heading' && block.text.trim()) {
      if (block.level === chapterLevel) {
        current = { title: clampTitle(block.text), lines: [] };
        chapters.push(current);
        continue;
      }
      if (block.level === titleLevel && title === null && chapters.length === 0) {
        title = clampTitle(block.text);
        continue;
      }
    }
    // Headings below the chapter level (scene titles) stay in the text as lines of their own.
    const text = block.text.replace(/\r?\n/g, ' ').trim();
    if (text === '') continue;
    if (!current) {
      current = { title: OPENING_CHAPTER_TITLE, lines: [] };
      chapters.push(current);
    }
    current.lines.push(text);
  }
  return { title, chapters: chapters.map((c) => ({ title: c.title || OPENING_CHAPTER_TITLE, content: c.lines.join('\n') })) };
}

/** Markdown's backslash escapes undone, for lines kept as typed (a scene break: `\*` is a star). */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_[\]{}()#+\-.!<>~|])/g, '$1');
}

/** How a file's inline text becomes marked text: Markdown keeps its emphasis; plain text its asterisks. */
export type InlineSyntax = 'markdown' | 'plain';

const INLINE: Record<InlineSyntax, { paragraph: (text: string) => string; heading: (text: string) => string }> = {
  markdown: { paragraph: markdownToMarkup, heading: (text) => markdownRuns(text).map((r) => r.text).join('') },
  plain: { paragraph: plainToMarkup, heading: (text) => text },
};

/**
 * A Markdown (or plain text) manuscript as blocks: ATX (`#`) and Setext (`===`, `---` under a
 * line) headings; paragraphs are runs of lines (joined with spaces, as Markdown reads them), as
 * marked text (docs/decisions/0009-chapter-markup.md): Markdown's `*`/`_` emphasis kept, a plain
 * file's asterisks escaped so they stay characters. Scene-break lines stay as typed.
 */
export function markdownBlocks(markdown: string, inline: InlineSyntax = 'markdown'): ImportBlock[] {
  const read = INLINE[inline];
  const blocks: ImportBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: read.paragraph(paragraph.join(' ')) });
    paragraph = [];
  };
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const atx = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      flush();
      blocks.push({ kind: 'heading', level: atx[1]!.length, text: read.heading(atx[2]!) });
      continue;
    }
    const next = lines[i + 1];
    if (line.trim() !== '' && paragraph.length === 0 && next !== undefined && /^ {0,3}(=+|-{2,})[ \t]*$/.test(next)) {
      blocks.push({ kind: 'heading', level: next.trim().startsWith('=') ? 1 : 2, text: read.heading(line.trim()) });
      i += 1;
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // A scene-break line (as our Markdown export escapes it, too) is a block of its own, as typed.
    const asTyped = inline === 'markdown' ? unescapeMarkdown(line) : line;
    if (/^ {0,3}([*#~-] ?){3,}$/.test(asTyped) || /^\s*[#*~]\s*$/.test(asTyped)) {
      flush();
      blocks.push({ kind: 'paragraph', text: asTyped.trim() });
      continue;
    }
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

/** What an import leaves out, by kind: counted while reading, listed before anything is written. */
export type LeftOutKind = 'image' | 'table' | 'footnote' | 'endnote' | 'comment' | 'textBox' | 'header' | 'footer' | 'other';
export type LeftOut = Partial<Record<LeftOutKind, number>>;

const LEFT_OUT_NAMES: Record<LeftOutKind, [one: string, many: string]> = {
  image: ['image', 'images'],
  table: ['table', 'tables'],
  footnote: ['footnote', 'footnotes'],
  endnote: ['endnote', 'endnotes'],
  comment: ['comment', 'comments'],
  textBox: ['text box', 'text boxes'],
  header: ['page header', 'page headers'],
  footer: ['page footer', 'page footers'],
  other: ['other element', 'other elements'],
};

/** "2 images and 1 table will not be imported"; null when nothing is left out. */
export function describeLeftOut(leftOut: LeftOut): string | null {
  const parts = (Object.keys(LEFT_OUT_NAMES) as LeftOutKind[]).flatMap((kind) => {
    const count = leftOut[kind] ?? 0;
    if (count <= 0) return [];
    const [one, many] = LEFT_OUT_NAMES[kind];
    return [`${count.toLocaleString('en-US')} ${count === 1 ? one : many}`];
  });
  if (parts.length === 0) return null;
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}`;
  return `${list} will not be imported`;
}
