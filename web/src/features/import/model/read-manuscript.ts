/**
 * A chosen file as chapters: DOCX through mammoth (its headings and paragraphs), Markdown and
 * plain text through the shared Markdown reader; split by packages/schema splitIntoChapters.
 */
import { type ImportBlock, type ImportedManuscript, markdownBlocks, splitIntoChapters } from '@chronicler/schema';

export const IMPORT_ACCEPT = '.docx,.md,.markdown,.txt,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/markdown,text/plain';

export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

/** A DOCX as HTML (mammoth), then its headings and paragraphs in document order. */
async function docxBlocks(bytes: ArrayBuffer): Promise<ImportBlock[]> {
  const mammoth = (await import('mammoth')).default;
  // The browser build of mammoth reads an ArrayBuffer; its Node build (what tests under jsdom
  // resolve) reads a Buffer.
  const NodeBuffer = (globalThis as { Buffer?: { from(bytes: ArrayBuffer): unknown } }).Buffer;
  const input = NodeBuffer ? ({ buffer: NodeBuffer.from(bytes) } as unknown as { arrayBuffer: ArrayBuffer }) : { arrayBuffer: bytes };
  const { value: html } = await mammoth.convertToHtml(input);
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const blocks: ImportBlock[] = [];
  for (const el of Array.from(doc.body.querySelectorAll('h1, h2, h3, h4, h5, h6, p, li'))) {
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (/^H[1-6]$/.test(el.tagName)) blocks.push({ kind: 'heading', level: Number(el.tagName[1]), text });
    // A list item inside another list item is read with its parent's text already.
    else if (el.tagName === 'P' && el.closest('li')) continue;
    else blocks.push({ kind: 'paragraph', text });
  }
  return blocks;
}

export async function readManuscript(file: File): Promise<ImportedManuscript> {
  const name = file.name.toLowerCase();
  try {
    const blocks = name.endsWith('.docx') ? await docxBlocks(await file.arrayBuffer()) : markdownBlocks(await file.text());
    const manuscript = splitIntoChapters(blocks);
    if (manuscript.chapters.length === 0) throw new UnreadableFileError('This file holds no text to import.');
    return manuscript;
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError('This file could not be read. Choose a Word document (.docx) or a Markdown file (.md).');
  }
}

/** The book title to suggest: the document's own, else the file name without its extension. */
export function suggestedTitle(manuscript: ImportedManuscript, fileName: string): string {
  return manuscript.title ?? (fileName.replace(/\.[^.]+$/, '').trim() || 'Imported manuscript');
}
