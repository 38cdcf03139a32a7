/**
 * Pages of the PDF: US Letter, 1-inch margins, the page number at the foot (from page 2). Lines of
 * shaped atoms (lines.ts) are written with the text operators directly: one text object and one
 * content stream per page, each run of one face a TJ array placed by its own text matrix (a slant
 * in that matrix draws italic where a face has none). The streams are deflated by the platform's
 * CompressionStream at the end (pdf-lib's drawText shaped and deflated in JavaScript, and made a
 * stream per call).
 */
import { type PDFDocument, type PDFPage, PDFRawStream } from 'pdf-lib';
import type { Run } from '@chronicler/schema';
import type { Line, ParagraphSetter } from './lines';

export const PAGE = { width: 612, height: 792 };
export const MARGIN = 72;
const PAGE_NUMBER_SIZE = 10;
/** The shear of a slanted face (about 12°, as synthetic obliques are drawn). */
const SLANT = 0.21;

const num = (n: number) => (Math.round(n * 100) / 100).toString();

export type Align = 'start' | 'center';

export class Pages {
  private page!: PDFPage;
  private y = 0;
  /** The open page's number (1: the title page, which shows none). */
  private pageNumber = 0;
  private ops: string[] = [];
  /** Font resource names of the open page, by embedded font. */
  private fontKeys = new Map<string, string>();
  private currentFont = '';
  /** Each finished page with its content, to be deflated and attached at the end. */
  readonly contents: { page: PDFPage; text: string }[] = [];
  readonly width = PAGE.width - 2 * MARGIN;

  constructor(
    private readonly doc: PDFDocument,
    private readonly setter: ParagraphSetter,
    private readonly leading: number,
  ) {}

  newPage(): void {
    this.finish();
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pageNumber += 1;
    this.fontKeys = new Map();
    this.ops = ['BT', '0 0 0 rg'];
    this.currentFont = '';
    this.y = PAGE.height - MARGIN;
  }

  skipTo(fractionDown: number): void {
    this.y = PAGE.height - MARGIN - (PAGE.height - 2 * MARGIN) * fractionDown;
  }

  gap(lines: number): void {
    this.y -= this.leading * lines;
  }

  /** A paragraph of runs at a size: set into lines, each on the next line of the page (a new page when full). */
  paragraph(runs: readonly Run[], size: number, align: Align, indent = 0): void {
    const { lines, rtl } = this.setter.set(runs, this.width / size, indent / size);
    lines.forEach((line, i) => {
      if (this.y - this.leading < MARGIN) this.newPage();
      this.y -= this.leading;
      const width = line.width * size;
      const first = i === 0 ? indent : 0;
      const x = align === 'center' ? MARGIN + Math.max(0, (this.width - width) / 2) : rtl ? MARGIN + this.width - first - width : MARGIN + first;
      this.write(line, x, this.y, size);
    });
  }

  private write(line: Line, x: number, y: number, size: number): void {
    let at = x;
    let k = 0;
    while (k < line.atoms.length) {
      const { face, slant } = line.atoms[k]!;
      // Atoms of one face and slant share one TJ array.
      let operand = '';
      let width = 0;
      for (; k < line.atoms.length && line.atoms[k]!.face === face && line.atoms[k]!.slant === slant; k++) {
        operand += line.atoms[k]!.shaped.operand;
        width += line.atoms[k]!.shaped.width;
      }
      const font = face.pdfFont!;
      let key = this.fontKeys.get(font.name);
      if (key === undefined) {
        key = this.page.node.newFontDictionary(font.name, font.ref).toString();
        this.fontKeys.set(font.name, key);
      }
      const fontOp = `${key} ${size} Tf`;
      if (fontOp !== this.currentFont) this.ops.push(fontOp);
      this.currentFont = fontOp;
      this.ops.push(`1 0 ${slant ? SLANT : 0} 1 ${num(at)} ${num(y)} Tm`, `[${operand}] TJ`);
      at += width * size;
    }
  }

  /** Closes the page: its text, and its number at the foot (before a new page, and at the end). */
  finish(): void {
    if (this.pageNumber === 0 || this.contents.at(-1)?.page === this.page) return;
    if (this.pageNumber > 1) {
      const { lines } = this.setter.set([{ text: String(this.pageNumber), italic: false, bold: false }], Infinity, 0);
      for (const line of lines) this.write(line, (PAGE.width - line.width * PAGE_NUMBER_SIZE) / 2, MARGIN / 2, PAGE_NUMBER_SIZE);
    }
    this.ops.push('ET');
    this.contents.push({ page: this.page, text: `${this.ops.join('\n')}\n` });
    this.ops = [];
  }

  /** Attaches every page's content, deflated at once (the platform's streams run side by side). */
  async attach(): Promise<void> {
    const encoder = new TextEncoder();
    const deflated = await Promise.all(this.contents.map(({ text }) => deflate(text)));
    this.contents.forEach(({ page, text }, i) => {
      const bytes = deflated[i] ?? encoder.encode(text);
      const dict = this.doc.context.obj(deflated[i] ? { Filter: 'FlateDecode', Length: bytes.length } : { Length: bytes.length });
      page.node.addContentStream(this.doc.context.register(PDFRawStream.of(dict, bytes)));
    });
  }
}

/** Deflated (zlib) by the platform when it can; null where there is no CompressionStream. */
async function deflate(text: string): Promise<Uint8Array | null> {
  if (typeof CompressionStream === 'undefined') return null;
  const stream = new Response(text).body!.pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
