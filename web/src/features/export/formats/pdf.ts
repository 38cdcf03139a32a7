/**
 * PDF with pdf-lib: the bundled DejaVu font embedded (subset), so every character an author types
 * prints (default PDF fonts miss curly quotes and most scripts); US Letter, 1-inch margins, page
 * numbers, a title page, chapters opening on new pages, first-line indents after openings, scene
 * breaks centred. Lines are broken by measured word widths.
 *
 * Speed: shaping text with the font (fontkit's layout) is what costs, and pdf-lib's drawText shapes
 * every line it draws. A book repeats its words, so each distinct word is measured and encoded to
 * glyphs once, and a line is written as the concatenation of its words' glyph codes with the text
 * operators directly (no kerning across a space, which body text does not need). Each page's text
 * is one content stream written as text and deflated by the platform's CompressionStream (native)
 * rather than by pdf-lib's operator objects and JavaScript deflate; the page number is part of it
 * (pdf-lib's drawText made a second stream per page, shaped and deflated in JavaScript).
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFName, type PDFPage, PDFRawStream } from 'pdf-lib';
import { type ExportProfile, type Manuscript, DEFAULT_SCENE_BREAK, SPACING_FACTOR, wordCountLine } from '@chronicler/schema';
import type { Progress } from './progress';

const PAGE = { width: 612, height: 792 };
const MARGIN = 72;
const SIZE = 12;
const TITLE_SIZE = 18;
const INDENT = 24;
const PAGE_NUMBER_SIZE = 10;

class Layout {
  private page!: PDFPage;
  private fontKey!: PDFName;
  private y = 0;
  /** The open page's number (1: the title page, which shows none). */
  private pageNumber = 0;
  /** The open text object of the page: one per page, lines placed relative to the last (Td). */
  private text: { x: number; y: number; size: number } | null = null;
  /** The page's text operators, as content-stream text. */
  private ops: string[] = [];
  /** Each finished page with its content, to be deflated and attached at the end. */
  readonly contents: { page: PDFPage; text: string }[] = [];
  private readonly widths = new Map<string, number>();
  /** Each word's glyph codes (hex) in the subset font; encoding one also adds its glyphs to the subset. */
  private readonly glyphs = new Map<string, string>();
  private readonly space: number;
  private readonly spaceGlyphs: string;
  readonly width = PAGE.width - 2 * MARGIN;

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly leading: number,
  ) {
    this.space = font.widthOfTextAtSize(' ', SIZE);
    this.spaceGlyphs = this.encode(' ');
  }

  newPage(): void {
    this.finish();
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pageNumber += 1;
    this.fontKey = this.page.node.newFontDictionary(this.font.name, this.font.ref);
    this.y = PAGE.height - MARGIN;
  }

  skipTo(fractionDown: number): void {
    this.y = PAGE.height - MARGIN - (PAGE.height - 2 * MARGIN) * fractionDown;
  }

  private encode(word: string): string {
    let hex = this.glyphs.get(word);
    if (hex === undefined) {
      hex = this.font.encodeText(word).toString().slice(1, -1);
      if (this.glyphs.size < 200_000) this.glyphs.set(word, hex);
    }
    return hex;
  }

  private wordWidth(word: string): number {
    let w = this.widths.get(word);
    if (w === undefined) {
      w = this.font.widthOfTextAtSize(word, SIZE);
      if (this.widths.size < 200_000) this.widths.set(word, w);
    }
    return w;
  }

  /** Writes glyph codes at x on the next line, starting a new page when this one is full. */
  private show(hex: string, x: number, size: number): void {
    if (this.y - this.leading < MARGIN) this.newPage();
    this.y -= this.leading;
    const key = this.fontKey.toString();
    if (this.text === null) {
      this.ops.push('BT', '0 0 0 rg', `${key} ${size} Tf`, `${num(x)} ${num(this.y)} Td`);
    } else {
      if (size !== this.text.size) this.ops.push(`${key} ${size} Tf`);
      this.ops.push(`${num(x - this.text.x)} ${num(this.y - this.text.y)} Td`);
    }
    this.text = { x, y: this.y, size };
    this.ops.push(`<${hex}> Tj`);
  }

  /** Closes the page: its text, and its number at the foot (before a new page, and at the end). */
  finish(): void {
    if (this.pageNumber === 0 || this.contents.at(-1)?.page === this.page) return;
    if (this.text !== null) this.ops.push('ET');
    if (this.pageNumber > 1) {
      // Written with the page's text rather than by pdf-lib's drawText (a second content stream per page).
      const label = String(this.pageNumber);
      const x = (PAGE.width - this.font.widthOfTextAtSize(label, PAGE_NUMBER_SIZE)) / 2;
      this.ops.push('BT', '0 0 0 rg', `${this.fontKey.toString()} ${PAGE_NUMBER_SIZE} Tf`, `${num(x)} ${num(MARGIN / 2)} Td`, `<${this.encode(label)}> Tj`, 'ET');
    }
    this.contents.push({ page: this.page, text: `${this.ops.join('\n')}\n` });
    this.text = null;
    this.ops = [];
  }

  centred(text: string, size = SIZE): void {
    const w = this.font.widthOfTextAtSize(text, size);
    this.show(this.font.encodeText(text).toString().slice(1, -1), MARGIN + Math.max(0, (this.width - w) / 2), size);
  }

  gap(lines: number): void {
    this.y -= this.leading * lines;
  }

  /** A paragraph, broken into lines at spaces; a word wider than a line is cut by characters. */
  paragraph(text: string, indent: number): void {
    const words = text.split(/[ \t]+/).filter(Boolean);
    let current: string[] = [];
    let width = indent;
    let first = true;
    const flush = () => {
      this.show(current.map((w) => this.encode(w)).join(this.spaceGlyphs), MARGIN + (first ? indent : 0), SIZE);
      first = false;
      current = [];
      width = 0;
    };
    for (const word of words) {
      for (const piece of this.pieces(word)) {
        const w = this.wordWidth(piece);
        if (current.length > 0 && width + this.space + w > this.width) flush();
        width += current.length > 0 ? this.space + w : w;
        current.push(piece);
      }
    }
    if (current.length > 0) flush();
  }

  private pieces(word: string): string[] {
    if (this.wordWidth(word) <= this.width) return [word];
    const out: string[] = [];
    let piece = '';
    for (const ch of word) {
      if (piece && this.font.widthOfTextAtSize(piece + ch, SIZE) > this.width) {
        out.push(piece);
        piece = '';
      }
      piece += ch;
    }
    if (piece) out.push(piece);
    return out;
  }
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

/** Deflated (zlib) by the platform when it can; null where there is no CompressionStream. */
async function deflate(text: string): Promise<Uint8Array | null> {
  if (typeof CompressionStream === 'undefined') return null;
  const stream = new Response(text).body!.pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Characters a PDF text line cannot hold: line breaks inside a paragraph, control codes. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control codes are exactly what is removed here
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

export async function manuscriptToPdf(m: Manuscript, profile: ExportProfile, fontBytes: Uint8Array, progress: Progress = () => {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(m.title);
  doc.setAuthor(m.author);
  if (m.description) doc.setSubject(m.description);
  doc.setCreator('Chronicler');
  const font = await doc.embedFont(fontBytes, { subset: true });
  const layout = new Layout(doc, font, SIZE * SPACING_FACTOR[profile.spacing]);
  const sceneBreak = profile.sceneBreak.trim() || DEFAULT_SCENE_BREAK;

  layout.newPage();
  layout.skipTo(0.3);
  layout.centred(printable(m.title), TITLE_SIZE);
  layout.gap(1);
  layout.centred(printable(`by ${m.author}`));
  if (m.wordCount > 0) layout.centred(wordCountLine(m.wordCount));

  const total = m.books.reduce((n, b) => n + b.chapters.length, 0);
  let done = 0;
  for (const book of m.books) {
    if (m.books.length > 1) {
      layout.newPage();
      layout.skipTo(0.3);
      layout.centred(printable(book.title), TITLE_SIZE);
    }
    for (const chapter of book.chapters) {
      layout.newPage();
      layout.skipTo(0.2);
      layout.centred(printable(chapter.title), TITLE_SIZE);
      layout.gap(1);
      for (const block of chapter.blocks) {
        if (block.kind === 'sceneBreak') layout.centred(printable(sceneBreak));
        else layout.paragraph(printable(block.text), block.opening ? 0 : INDENT);
      }
      progress((++done / Math.max(1, total)) * 0.8);
      // Let the worker answer progress questions between chapters.
      if (done % 50 === 0) await Promise.resolve();
    }
  }
  layout.finish();
  const encoder = new TextEncoder();
  // Every page's text deflated at once: the platform's streams run side by side.
  const deflated = await Promise.all(layout.contents.map(({ text }) => deflate(text)));
  layout.contents.forEach(({ page, text }, i) => {
    const bytes = deflated[i] ?? encoder.encode(text);
    const dict = doc.context.obj(deflated[i] ? { Filter: 'FlateDecode', Length: bytes.length } : { Length: bytes.length });
    page.node.addContentStream(doc.context.register(PDFRawStream.of(dict, bytes)));
  });
  const bytes = await doc.save({ useObjectStreams: true });
  progress(1);
  return bytes;
}
