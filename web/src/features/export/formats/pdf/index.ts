/**
 * PDF with pdf-lib (docs/web.md, "Export"): US Letter, 1-inch margins, page numbers, a title page,
 * chapters opening on new pages, first-line indents after openings, scene breaks centred, italic
 * and bold in the fonts' own faces. Every character prints: each takes the first font of its
 * style's fallback order that has it (fonts.ts), lines break where the script allows and run in
 * the paragraph's direction (lines.ts), glyphs come from fontkit's shaping (shape.ts). Fonts are
 * embedded as subsets. What could not print as written (a character no font has, emoji in black and
 * white) is named in the notices the author sees.
 *
 * Speed: every character's font is chosen before the pages are set (faces load once, in order);
 * each distinct word is shaped once (a book repeats its words).
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { type ExportProfile, type Manuscript, type Run, DEFAULT_SCENE_BREAK, SPACING_FACTOR, wordCountLine } from '@chronicler/schema';
import type { Progress } from '../progress';
import type { FontSource } from './font-files';
import { FontBook } from './fonts';
import { ParagraphSetter } from './lines';
import { Pages } from './page';

export type { FontFace, FontSource } from './font-files';
export { FONT_FILES } from './font-files';

const SIZE = 12;
const TITLE_SIZE = 18;
const INDENT = 24;

export interface PdfResult {
  bytes: Uint8Array;
  /** What the author should know about how the text printed (none when it printed as written). */
  notices: string[];
}

/** Characters a PDF text line cannot hold: line breaks inside a paragraph, control codes. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control codes are exactly what is removed here
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

const plain = (text: string): Run[] => [{ text: printable(text), italic: false, bold: false }];
const printableRuns = (runs: readonly Run[]): Run[] => runs.map((r) => ({ ...r, text: printable(r.text) }));

export async function manuscriptToPdf(m: Manuscript, profile: ExportProfile, fonts: FontSource, progress: Progress = () => {}): Promise<PdfResult> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(m.title);
  doc.setAuthor(m.author);
  if (m.description) doc.setSubject(m.description);
  doc.setCreator('Chronicler');
  const book = new FontBook(doc, profile.font, fonts);
  const setter = new ParagraphSetter(book);
  const sceneBreak = plain(profile.sceneBreak.trim() || DEFAULT_SCENE_BREAK);

  // Every text the pages will hold, in order, so each character's font is known before setting.
  const title = plain(m.title);
  const byline = plain(`by ${m.author}`);
  const count = plain(wordCountLine(m.wordCount));
  for (const runs of [title, byline, count, sceneBreak, plain('0123456789')]) setter.want(runs);
  const body = m.books.map((b) => ({
    title: plain(b.title),
    chapters: b.chapters.map((c) => ({
      title: plain(c.title),
      blocks: c.blocks.map((block) => (block.kind === 'sceneBreak' ? null : { runs: printableRuns(block.runs), opening: block.opening })),
    })),
  }));
  for (const b of body) {
    setter.want(b.title);
    for (const c of b.chapters) {
      setter.want(c.title);
      for (const block of c.blocks) if (block) setter.want(block.runs);
    }
  }
  await book.resolve();
  progress(0.1);

  const pages = new Pages(doc, setter, SIZE * SPACING_FACTOR[profile.spacing]);
  pages.newPage();
  pages.skipTo(0.3);
  pages.paragraph(title, TITLE_SIZE, 'center');
  pages.gap(1);
  pages.paragraph(byline, SIZE, 'center');
  if (m.wordCount > 0) pages.paragraph(count, SIZE, 'center');

  const total = m.books.reduce((n, b) => n + b.chapters.length, 0);
  let done = 0;
  for (const b of body) {
    if (body.length > 1) {
      pages.newPage();
      pages.skipTo(0.3);
      pages.paragraph(b.title, TITLE_SIZE, 'center');
    }
    for (const chapter of b.chapters) {
      pages.newPage();
      pages.skipTo(0.2);
      pages.paragraph(chapter.title, TITLE_SIZE, 'center');
      pages.gap(1);
      for (const block of chapter.blocks) {
        if (block === null) pages.paragraph(sceneBreak, SIZE, 'center');
        else pages.paragraph(block.runs, SIZE, 'start', block.opening ? 0 : INDENT);
      }
      progress(0.1 + (++done / Math.max(1, total)) * 0.7);
      // Let the worker answer progress questions between chapters.
      if (done % 50 === 0) await Promise.resolve();
    }
  }
  pages.finish();
  await pages.attach();
  const bytes = await doc.save({ useObjectStreams: true });
  progress(1);
  return { bytes, notices: notices(book) };
}

function notices(book: FontBook): string[] {
  const out: string[] = [];
  if (book.emojiUsed) out.push('Emoji are printed in black and white, without skin tones: the PDF uses a monochrome emoji font. The other formats keep them as typed.');
  if (book.missing.size > 0) {
    const named = [...book.missing].slice(0, 8).map((c) => `${c} (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
    const more = book.missing.size > 8 ? ` and ${book.missing.size - 8} more` : '';
    out.push(`${book.missing.size === 1 ? 'One character' : `${book.missing.size} characters`} no bundled font can print ${book.missing.size === 1 ? 'shows' : 'show'} as □ in the PDF: ${named.join(', ')}${more}. The other formats keep ${book.missing.size === 1 ? 'it' : 'them'}.`);
  }
  return out;
}
