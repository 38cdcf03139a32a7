/**
 * A new author with a series, a book and one chapter, made through the API, and the chapter
 * editor's address for it:
 *
 *   const story = await newStory(context, longChapter(3_000).text);
 *   await openEditor(page, editorUrl(story));
 */
import { type APIRequestContext, type BrowserContext, type Page, expect } from '@playwright/test';
import { signUpViaApi } from './index';

export async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(path) : await request.post(path, { data });
  expect(res.ok(), `${method} ${path} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

export interface Story {
  username: string;
  password: string;
  seriesId: string;
  bookId: string;
  chapterId: string;
}

/** A new author (signed in in `context`) with a series, a book and one chapter holding `content`. */
export async function newStory(context: BrowserContext, content: string, options: { displayName?: string } = {}): Promise<Story> {
  const request = context.request;
  const author = await signUpViaApi(context, { displayName: options.displayName ?? 'Eda Writer' });
  const series = await api<{ id: string }>(request, 'POST', '/api/series', {
    title: 'The Long Road',
    description: 'A saga in three books',
    totalBooks: 3,
    currentBook: 1,
    coverImage: null,
  });
  const book = await api<{ id: string }>(request, 'POST', '/api/books', { seriesId: series.id, title: 'The First Crossing', description: '', position: 1 });
  const chapter = await api<{ id: string }>(request, 'POST', '/api/chapters', {
    bookId: book.id,
    title: 'Lanterns',
    content,
    wordCount: 0,
    status: 'in_progress',
  });
  return { username: author.username, password: author.password, seriesId: series.id, bookId: book.id, chapterId: chapter.id };
}

/** The chapter editor's URL for the story's chapter (or a new chapter in its book, with `null`). */
export function editorUrl(story: Pick<Story, 'bookId' | 'seriesId' | 'chapterId'>, chapterId: string | null = story.chapterId): string {
  const params = new URLSearchParams();
  if (chapterId) params.set('id', chapterId);
  params.set('bookId', story.bookId);
  params.set('seriesId', story.seriesId);
  return `/chapter-editor?${params.toString()}`;
}

/** The editor's writing area. */
export const chapterContent = (page: Page) => page.getByTestId('chapter-content');

export async function openEditor(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(chapterContent(page)).toBeVisible({ timeout: 20_000 });
}
