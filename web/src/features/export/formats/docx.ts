/**
 * DOCX in standard manuscript format with the `docx` library: a title page (author, rounded word
 * count, title), 12 pt, 1-inch margins, first-line indents on every paragraph, chapters on new
 * pages, a centred marker at scene breaks, a running header with the page number. The text goes
 * in as typed (curly quotes and dashes kept), emphasis as Word's italic and bold runs (manuscript
 * format italicises rather than underlines today). A right-to-left paragraph is marked
 * bidirectional, and Chinese, Japanese and Korean runs carry their language so Word picks the
 * right forms (docs/web.md, "Export").
 */
import { AlignmentType, Document, Header, Packer, PageNumber, Paragraph, TextRun } from 'docx';
import { type ExportProfile, type Manuscript, type Run, DEFAULT_SCENE_BREAK, SPACING_FACTOR, wordCountLine } from '@chronicler/schema';
import type { Progress } from './progress';
import { cjkLanguage, paragraphDirection } from './script';

const EAST_ASIAN = { ja: 'ja-JP', ko: 'ko-KR', zh: 'zh-CN' } as const;

/** A body paragraph: its runs with their emphasis, its direction and East Asian language. */
function bodyParagraph(text: string, runs: readonly Run[]): Paragraph {
  const rtl = paragraphDirection(text) === 'rtl';
  const cjk = cjkLanguage(text);
  const language = cjk ? { eastAsia: EAST_ASIAN[cjk] } : undefined;
  return new Paragraph({
    ...(rtl ? { bidirectional: true } : {}),
    children: runs.map((run) => new TextRun({ text: run.text, italics: run.italic, bold: run.bold, ...(rtl ? { rightToLeft: true } : {}), ...(language ? { language } : {}) })),
  });
}

const TWIPS_PER_INCH = 1440;
const FONTS = { serif: 'Times New Roman', sans: 'Arial' } as const;

export async function manuscriptToDocx(m: Manuscript, profile: ExportProfile, progress: Progress = () => {}): Promise<Uint8Array> {
  const line = Math.round(240 * SPACING_FACTOR[profile.spacing]);
  const sceneBreak = profile.sceneBreak.trim() || DEFAULT_SCENE_BREAK;
  const surname = m.author.trim().split(/\s+/).pop() ?? m.author;
  const noIndent = { firstLine: 0 };
  const children: Paragraph[] = [
    new Paragraph({ indent: noIndent, children: [new TextRun(m.author)] }),
    new Paragraph({ indent: noIndent, alignment: AlignmentType.RIGHT, children: [new TextRun(wordCountLine(m.wordCount))] }),
    new Paragraph({ indent: noIndent, alignment: AlignmentType.CENTER, spacing: { before: TWIPS_PER_INCH * 3 }, children: [new TextRun(m.title)] }),
    new Paragraph({ indent: noIndent, alignment: AlignmentType.CENTER, children: [new TextRun(`by ${m.author}`)] }),
  ];
  const total = m.books.reduce((n, b) => n + b.chapters.length, 0);
  let done = 0;
  for (const book of m.books) {
    if (m.books.length > 1) {
      children.push(new Paragraph({ pageBreakBefore: true, indent: noIndent, alignment: AlignmentType.CENTER, spacing: { before: TWIPS_PER_INCH * 2 }, children: [new TextRun({ text: book.title, bold: true })] }));
    }
    for (const chapter of book.chapters) {
      // Chapter openings a third of the way down a new page, as manuscripts do.
      children.push(new Paragraph({ pageBreakBefore: true, indent: noIndent, alignment: AlignmentType.CENTER, spacing: { before: TWIPS_PER_INCH * 2, after: line }, children: [new TextRun(chapter.title)] }));
      for (const block of chapter.blocks) {
        children.push(
          block.kind === 'sceneBreak'
            ? new Paragraph({ indent: noIndent, alignment: AlignmentType.CENTER, children: [new TextRun(sceneBreak)] })
            : bodyParagraph(block.text, block.runs),
        );
      }
      progress(++done / total / 2);
    }
  }
  const doc = new Document({
    creator: m.author,
    title: m.title,
    description: m.description,
    styles: {
      default: {
        // The body's first-line indent is the default (thousands of paragraphs carry no properties of
        // their own); the few centred lines (title page, openings, scene breaks) take it off.
        document: { run: { font: FONTS[profile.font], size: 24 }, paragraph: { spacing: { line, before: 0, after: 0 }, indent: { firstLine: TWIPS_PER_INCH / 2 } } },
      },
    },
    sections: [
      {
        properties: {
          page: { margin: { top: TWIPS_PER_INCH, right: TWIPS_PER_INCH, bottom: TWIPS_PER_INCH, left: TWIPS_PER_INCH } },
          titlePage: true,
        },
        headers: {
          default: new Header({
            children: [new Paragraph({ indent: noIndent, alignment: AlignmentType.RIGHT, children: [new TextRun({ children: [`${surname} / ${m.title} / `, PageNumber.CURRENT] })] })],
          }),
          first: new Header({ children: [] }),
        },
        children,
      },
    ],
  });
  const out = new Uint8Array(await Packer.toArrayBuffer(doc));
  progress(1);
  return out;
}
