/**
 * A chosen file as chapters of marked text (docs/decisions/0009-chapter-markup.md): DOCX through
 * mammoth with its italic and bold (read-docx.ts), Markdown with its emphasis and plain text with
 * its asterisks as characters through the shared reader; split by packages/schema splitIntoChapters.
 */
import { type ImportBlock, type ImportedManuscript, type LeftOut, markdownBlocks, splitIntoChapters } from '@chronicler/schema';
import { readDocx } from './read-docx';

export const IMPORT_ACCEPT = '.docx,.md,.markdown,.txt,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/markdown,text/plain';

export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

/** A chosen file's chapters, and what it holds that the import leaves out (listed before writing). */
export interface ReadManuscript {
  manuscript: ImportedManuscript;
  leftOut: LeftOut;
}

async function blocksOf(file: File, name: string): Promise<{ blocks: ImportBlock[]; leftOut: LeftOut }> {
  if (name.endsWith('.docx')) return readDocx(await file.arrayBuffer());
  // A .txt is plain text: its asterisks are characters, not emphasis.
  return { blocks: markdownBlocks(await file.text(), name.endsWith('.txt') ? 'plain' : 'markdown'), leftOut: {} };
}

export async function readManuscript(file: File): Promise<ReadManuscript> {
  const name = file.name.toLowerCase();
  try {
    const { blocks, leftOut } = await blocksOf(file, name);
    const manuscript = splitIntoChapters(blocks);
    if (manuscript.chapters.length === 0) throw new UnreadableFileError('This file holds no text to import.');
    return { manuscript, leftOut };
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError('This file could not be read. Choose a Word document (.docx) or a Markdown file (.md).');
  }
}

/** The book title to suggest: the document's own, else the file name without its extension. */
export function suggestedTitle(manuscript: ImportedManuscript, fileName: string): string {
  return manuscript.title ?? (fileName.replace(/\.[^.]+$/, '').trim() || 'Imported manuscript');
}
