import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Document, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { byPosition } from '@chronicler/schema';
import { freshDb, serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { renderWithDb } from '@/test/renderWithDb';
import { ImportScreen } from './index';

vi.setConfig({ testTimeout: 30_000 });

async function seed() {
  const db = freshDb();
  const series = serverSeries({ title: 'The Glass Kingdoms' });
  const book = serverBook(series.id, { title: 'The Salt Crown', position: 1 });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(serverChapter(book, { title: 'Already here', position: 1, content: 'Old text.' }));
  return { db, series, book };
}

const chaptersOf = async (db: ReturnType<typeof freshDb>, bookId: string) =>
  (await db.chapters.where('bookId').equals(bookId).toArray()).sort(byPosition).map((c) => [c.title, c.content]);

describe('Import manuscript', () => {
  it('splits a Markdown file at its headings and writes a new book, offline-first through the mutators', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, series } = await seed();
    renderWithDb(<ImportScreen seriesId={series.id} />, { plan: 'wordsmith', db });
    const md = '# The Iron Tide\n\n## Iron Rising\n\nThe first paragraph.\n\n“Quoted” — dash.\n\n## The Deep\n\nDown we go.\n';
    await user.upload(await screen.findByTestId('import-file'), new File([md], 'iron-tide.md', { type: 'text/markdown' }));
    expect(await screen.findByText('iron-tide.md: 2 chapters')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Book title/ })).toHaveProperty('value', 'The Iron Tide');
    await user.click(screen.getByRole('button', { name: 'Import 2 chapters' }));
    expect(await screen.findByText('Manuscript imported')).toBeTruthy();
    const book = (await db.books.where('seriesId').equals(series.id).toArray()).find((b) => b.title === 'The Iron Tide')!;
    expect(await chaptersOf(db, book.id)).toEqual([
      ['Iron Rising', 'The first paragraph.\n“Quoted” — dash.'],
      ['The Deep', 'Down we go.'],
    ]);
    // Queued for the server like any edit.
    expect(await db.outbox.count()).toBe(3);
  });

  it('reads a Word document and adds its chapters after an existing book’s own', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, series, book } = await seed();
    renderWithDb(<ImportScreen seriesId={series.id} />, { plan: 'apprentice', db });
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Chapter Two', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('The first paragraph stays first.'),
            new Paragraph('She didn’t answer — the sea did…'),
            new Paragraph({ text: 'Chapter Three', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('The end.'),
          ],
        },
      ],
    });
    const bytes = await Packer.toArrayBuffer(doc);
    await user.upload(await screen.findByTestId('import-file'), new File([bytes], 'draft.docx'));
    expect(await screen.findByText('draft.docx: 2 chapters', {}, { timeout: 15_000 })).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'An existing book' }));
    await user.click(screen.getByRole('combobox', { name: /^Book/ }));
    await user.click(await screen.findByRole('option', { name: 'The Salt Crown' }));
    await user.click(screen.getByRole('button', { name: 'Import 2 chapters' }));
    await waitFor(async () => expect(await chaptersOf(db, book.id)).toHaveLength(3));
    expect(await chaptersOf(db, book.id)).toEqual([
      ['Already here', 'Old text.'],
      ['Chapter Two', 'The first paragraph stays first.\nShe didn’t answer — the sea did…'],
      ['Chapter Three', 'The end.'],
    ]);
  });

  it('says so when a file cannot be read', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, series } = await seed();
    renderWithDb(<ImportScreen seriesId={series.id} />, { plan: 'wordsmith', db });
    await user.upload(await screen.findByTestId('import-file'), new File([new Uint8Array([1, 2, 3])], 'broken.docx'));
    expect((await screen.findByRole('alert')).textContent).toContain('This file could not be read.');
  });

  it('says what a Word document leaves out before anything is written, and keeps its italics', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, series } = await seed();
    renderWithDb(<ImportScreen seriesId={series.id} />, { plan: 'wordsmith', db });
    const pixel = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    const image = () => new Paragraph({ children: [new ImageRun({ type: 'png', data: pixel, transformation: { width: 10, height: 10 } })] });
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'The Map', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ children: [new TextRun('Aboard the '), new TextRun({ text: 'Maren', italics: true }), new TextRun('.')] }),
            image(),
            image(),
            new Table({ rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('Cargo')] })] })] }),
          ],
        },
      ],
    });
    await user.upload(await screen.findByTestId('import-file'), new File([await Packer.toArrayBuffer(doc)], 'map.docx'));
    expect((await screen.findByTestId('import-left-out', {}, { timeout: 15_000 })).textContent).toContain('2 images and 1 table will not be imported.');
    expect(await db.outbox.count()).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Import 1 chapter' }));
    expect(await screen.findByText('Manuscript imported')).toBeTruthy();
    const book = (await db.books.where('seriesId').equals(series.id).toArray()).find((b) => b.title === 'map')!;
    expect(await chaptersOf(db, book.id)).toEqual([['The Map', 'Aboard the *Maren*.']]);
  });
});
