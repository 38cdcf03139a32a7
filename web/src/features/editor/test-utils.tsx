/**
 * Rendering the editor in tests: a real Dexie database on fake-indexeddb, the real mutators, a
 * memory router with the pages the editor leads to, Mantine (no theme: features do not import each
 * other) and the toast region.
 */
import { act, render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { EditorView } from '@codemirror/view';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ToastRegion } from '@/components/ToastRegion';
import type { ChroniclerDb } from '@chronicler/sync-client';
import type { Mutators } from '@chronicler/sync-client';
import { SyncTestProvider } from '@/lib/sync';
import { freshDb, serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import type { Book, Chapter, Series } from '@chronicler/schema';
import { ChapterEditor } from './ChapterEditor';

export interface Seeded {
  db: ChroniclerDb;
  series: Series;
  book: Book;
  chapter: Chapter;
}

export async function seedDb(chapterOver: Partial<Chapter> = {}): Promise<Seeded> {
  const db = freshDb();
  await db.open();
  const series = serverSeries();
  const book = serverBook(series.id, { title: 'The First Crossing' });
  const chapter = serverChapter(book, { title: 'Lanterns', content: 'The river ran cold.', wordCount: 4, ...chapterOver });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  return { db, series, book, chapter };
}

export function renderEditor(db: ChroniclerDb, path: string, mutators?: Mutators) {
  notifications.clean();
  const router = createMemoryRouter(
    [
      { path: '/chapter-editor', element: <ChapterEditor /> },
      { path: '/series', element: <p>Series page</p> },
      { path: '/', element: <p>Home page</p> },
    ],
    { initialEntries: [path] },
  );
  const utils = render(
    <MantineProvider env="test">
      <SyncTestProvider db={db} {...(mutators ? { mutators } : {})}>
        <RouterProvider router={router} />
      </SyncTestProvider>
      <ToastRegion />
    </MantineProvider>,
  );
  return { router, ...utils };
}

export function editorPath(s: { book: Book; series: Series; chapter?: Chapter | null }): string {
  const params = new URLSearchParams();
  if (s.chapter) params.set('id', s.chapter.id);
  params.set('bookId', s.book.id);
  params.set('seriesId', s.series.id);
  return `/chapter-editor?${params.toString()}`;
}

/** The CodeMirror view of the writing area. */
export function contentView(container: HTMLElement = document.body): EditorView {
  const el = container.querySelector<HTMLElement>('[data-testid="chapter-content"]');
  if (!el) throw new Error('The writing area is not there');
  const view = EditorView.findFromDOM(el);
  if (!view) throw new Error('No CodeMirror view');
  return view;
}

/** Types `text` at the end of the chapter, as keystrokes would (a user input transaction). */
export function typeAtEnd(text: string, view: EditorView = contentView()): void {
  act(() => {
    for (const ch of text) {
      view.dispatch({ changes: { from: view.state.doc.length, insert: ch }, userEvent: 'input.type' });
    }
  });
}

export function replaceAll(text: string, view: EditorView = contentView()): void {
  act(() => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: 'input.type' });
  });
}

export { serverChapter };
