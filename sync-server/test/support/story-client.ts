/**
 * A signed-in author's view of the story API for tests: inject calls with the session cookie, and
 * creates that insist on 201 so a test fails where the setup broke.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type SignedIn, json } from './helpers.ts';

type Headers = Record<string, string>;

export interface StoryClient {
  author: SignedIn;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, headers?: Headers): Promise<LightMyRequestResponse>;
  put(url: string, body: unknown, headers?: Headers): Promise<LightMyRequestResponse>;
  del(url: string, headers?: Headers): Promise<LightMyRequestResponse>;
  /** POST that must answer 201; returns the created row. */
  create<T = any>(url: string, body: unknown): Promise<T>;
  /** GET that must answer 200; returns the body. */
  read<T = any>(url: string): Promise<T>;
  /** A series, a book in it, and a chapter in that book, ready to use. */
  seriesWithChapter(): Promise<{ series: any; book: any; chapter: any }>;
}

export function storyClient(app: FastifyInstance, author: SignedIn): StoryClient {
  const client: StoryClient = {
    author,
    get: (url) => app.inject({ method: 'GET', url, headers: { cookie: author.cookie } }),
    post: (url, body, headers = {}) => app.inject({ method: 'POST', url, payload: body as object, headers: { ...author.headers, ...headers } }),
    put: (url, body, headers = {}) => app.inject({ method: 'PUT', url, payload: body as object, headers: { ...author.headers, ...headers } }),
    del: (url, headers = {}) => app.inject({ method: 'DELETE', url, headers: { cookie: author.cookie, ...headers } }),
    async create(url, body) {
      const res = await client.post(url, body);
      expect(res.statusCode, res.body).toBe(201);
      return json(res);
    },
    async read(url) {
      const res = await client.get(url);
      expect(res.statusCode, res.body).toBe(200);
      return json(res);
    },
    async seriesWithChapter() {
      const series = await client.create('/api/series', { title: 'The Long Road' });
      const book = await client.create('/api/books', { seriesId: series.id, title: 'Book One' });
      const chapter = await client.create('/api/chapters', { bookId: book.id, title: 'Chapter 1', content: 'It began.' });
      return { series, book, chapter };
    },
  };
  return client;
}

/** The error body every failure carries. */
export function expectError(res: LightMyRequestResponse, status: number, code: string, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  const body = json(res);
  expect(body.code).toBe(code);
  if (message !== undefined) expect(body.message).toBe(message);
  expect(Object.keys(body).filter((k) => !['message', 'code', 'fields'].includes(k))).toEqual([]);
}
