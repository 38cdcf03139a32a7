/**
 * A stand-in for the browser's `fetch` (the third-party boundary of the app). Each route answers
 * with a status and a JSON body, or fails like a request that never reached the server.
 */
import { vi } from 'vitest';

export type StubAnswer =
  | { status: number; body?: unknown }
  | 'network-error'
  | ((init: RequestInit | undefined) => Promise<{ status: number; body?: unknown } | 'network-error'>);

export interface FetchCall {
  method: string;
  path: string;
  body: unknown;
  init: RequestInit | undefined;
}

export function stubFetch(routes: Record<string, StubAnswer>) {
  const calls: FetchCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body, init });
    const key = `${method} ${path.split('?')[0]}`;
    let answer = routes[key];
    if (answer === undefined) throw new Error(`Unexpected request in test: ${key}`);
    if (typeof answer === 'function') answer = await answer(init);
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new Response(text === '' ? null : text, {
      status: answer.status,
      headers: text === '' ? {} : { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls };
}

/** A promise with its resolve function, to hold a request open. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const TEST_USER = {
  id: '0190a0b0-0000-7000-8000-000000000001',
  username: 'ursula',
  displayName: 'Ursula Le Guin',
  email: 'ursula@example.com',
  plan: 'wordsmith',
} as const;
