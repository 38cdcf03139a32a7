/**
 * The page of the export bench: the web app's REAL export code (web/src/features/export/formats,
 * as the export worker runs it) and the real local store (@chronicler/sync-client), in Chromium.
 * Exposes `globalThis.__exportBench`; the Node side (bench/export-formats.ts) drives it.
 */
import { type Book, type Chapter, type ExportFormat, type Series, DEFAULT_EXPORT_PROFILE, newId } from '@chronicler/schema';
import { type ChroniclerDb, chaptersOfBook, booksOfSeries, getSeries, openChroniclerDb } from '@chronicler/sync-client';
import { renderExport } from '../../../web/src/features/export/formats/render.ts';
import { chapterText } from '../../lib/prose.ts';

let db: ChroniclerDb | null = null;
let seriesId = '';
let bookId = '';
let font: Uint8Array | null = null;

const at = new Date().toISOString();
const row = { rev: 1, createdAt: at, updatedAt: at, deletedAt: null };

async function seed(chapters: number, wordsPerChapter: number): Promise<{ words: number }> {
  db = openChroniclerDb(`export-bench-${Date.now()}`);
  seriesId = newId();
  bookId = newId();
  const series: Series = { ...row, id: seriesId, ownerId: newId(), title: 'The Lantern Cycle', description: 'A bench series', totalBooks: 1, currentBook: 1, coverImage: null };
  const book: Book = { ...row, id: bookId, seriesId, title: 'Book One', description: '', position: 1, status: 'in_progress', wordCount: 0 };
  const list: Chapter[] = [];
  for (let i = 0; i < chapters; i++) {
    list.push({ ...row, id: newId(), seriesId, bookId, title: `Chapter ${i + 1}`, content: chapterText(i + 1, wordsPerChapter), position: i + 1, wordCount: wordsPerChapter, status: 'draft' });
  }
  await db.transaction('rw', db.series, db.books, db.chapters, async () => {
    await db!.series.put(series);
    await db!.books.put(book);
    await db!.chapters.bulkPut(list);
  });
  font = new Uint8Array(await (await fetch('/DejaVuSerif.ttf')).arrayBuffer());
  return { words: chapters * wordsPerChapter };
}

/** The baseline: the book's chapters read from IndexedDB, in order, and their text joined. */
async function readAndJoin(): Promise<{ ms: number; chars: number }> {
  const start = performance.now();
  const chapters = await chaptersOfBook(db!, bookId);
  const text = chapters.map((c) => c.content).join('\n');
  return { ms: performance.now() - start, chars: text.length };
}

/** An export as the Export page makes it: the rows read from IndexedDB, then the file built. */
async function exportAs(format: ExportFormat): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const [series, books, chapters] = await Promise.all([getSeries(db!, seriesId), booksOfSeries(db!, seriesId), chaptersOfBook(db!, bookId)]);
  const file = await renderExport(
    { what: 'manuscript', series: series!, author: 'Bench Author', books, chapters, profile: { ...DEFAULT_EXPORT_PROFILE, format } },
    async () => font!,
  );
  return { ms: performance.now() - start, bytes: file.bytes.length };
}

(globalThis as unknown as { __exportBench: unknown }).__exportBench = { seed, readAndJoin, exportAs };
(globalThis as unknown as { __exportBenchReady: boolean }).__exportBenchReady = true;
