import { describe, expect, it, vi } from 'vitest';
import {
  CommentRangeEnd,
  CommentRangeStart,
  CommentReference,
  Document,
  FootnoteReferenceRun,
  Header,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { parseMarkup, visibleText } from '@chronicler/schema';
import { readManuscript } from './read-manuscript';

vi.setConfig({ testTimeout: 30_000 });

/** A 1×1 PNG. */
const PIXEL = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

/** A manuscript as Word writes one: emphasis, a star typed, an image, a table, a footnote, a comment, a page header. */
async function wordManuscript(): Promise<File> {
  const doc = new Document({
    footnotes: { 1: { children: [new Paragraph('Salt was money then.')] } },
    comments: { children: [{ id: 0, author: 'Editor', date: new Date('2026-01-01'), children: [new Paragraph('Cut this?')] }] },
    sections: [
      {
        headers: { default: new Header({ children: [new Paragraph('The Salt Crown — draft')] }) },
        children: [
          new Paragraph({ text: 'Salt and Ash', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('She read '),
              new TextRun({ text: 'The Tide', italics: true }),
              new TextRun(' and said '),
              new TextRun({ text: 'never', bold: true }),
              new TextRun(', '),
              new TextRun({ text: 'never again', bold: true, italics: true }),
              new TextRun('.'),
              new FootnoteReferenceRun(1),
            ],
          }),
          new Paragraph({ children: [new TextRun('A star * stays a star, un'), new TextRun({ text: 'believ', italics: true }), new TextRun('ably.')] }),
          new Paragraph({ children: [new ImageRun({ type: 'png', data: PIXEL, transformation: { width: 10, height: 10 } })] }),
          new Table({ rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('Cargo')] }), new TableCell({ children: [new Paragraph('Salt')] })] })] }),
          new Paragraph({ text: 'The Harbour', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new CommentRangeStart(0), new TextRun('Gulls over the '), new TextRun({ text: 'Maren', italics: true }), new CommentRangeEnd(0), new TextRun({ children: [new CommentReference(0)] }), new TextRun('.')] }),
        ],
      },
    ],
  });
  return new File([await Packer.toArrayBuffer(doc)], 'salt-crown.docx');
}

describe('readManuscript', () => {
  it('keeps a Word document’s italic and bold as chapter markup, and counts what it leaves out', async () => {
    const { manuscript, leftOut } = await readManuscript(await wordManuscript());
    expect(manuscript.chapters.map((c) => c.title)).toEqual(['Salt and Ash', 'The Harbour']);
    const [first, second] = manuscript.chapters;
    expect(first!.content).toBe('She read *The Tide* and said **never**, ***never again***.\nA star \\* stays a star, un*believ*ably.');
    expect(parseMarkup(first!.content).filter((r) => r.italic || r.bold)).toEqual([
      { text: 'The Tide', italic: true, bold: false },
      { text: 'never', italic: false, bold: true },
      { text: 'never again', italic: true, bold: true },
      { text: 'believ', italic: true, bold: false },
    ]);
    // The footnote's mark and text, the table's cells and the comment are not in the chapters.
    expect(visibleText(first!.content)).not.toMatch(/\[1\]|Salt was money|Cargo/);
    expect(second!.content).toBe('Gulls over the *Maren*.');
    expect(leftOut).toEqual({ image: 1, table: 1, footnote: 1, comment: 1, header: 1 });
  });

  it('keeps Markdown emphasis, and a plain text file’s asterisks as characters', async () => {
    const md = '# One\n\nShe read _The Tide_ and said **never**, *again*.\n\n# Two\n\nA file_name, a \\*star\\*.\n';
    const fromMarkdown = await readManuscript(new File([md], 'draft.md'));
    expect(fromMarkdown.manuscript.chapters.map((c) => c.content)).toEqual(['She read *The Tide* and said **never**, *again*.', 'A file_name, a \\*star\\*.']);
    expect(fromMarkdown.leftOut).toEqual({});
    const fromText = await readManuscript(new File(['She said *never*.'], 'draft.txt'));
    expect(fromText.manuscript.chapters[0]!.content).toBe('She said \\*never\\*.');
    expect(visibleText(fromText.manuscript.chapters[0]!.content)).toBe('She said *never*.');
  });
});
