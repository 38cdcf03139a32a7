/**
 * HTTP for the engine: every request with its headers, a JSON body (or a Blob's bytes), a per-request timeout, and an
 * abort of everything on the wire when the engine stops. Answers are classified by the shared
 * status contract (`classifyStatus` / `classifyMutationAnswer` in @chronicler/schema).
 */
import type { ApiErrorBody } from '@chronicler/schema';
import type { FetchLike, TimersLike } from './platform.ts';

export interface TransportOptions {
  fetch: FetchLike;
  /** '' for the same origin. */
  baseUrl: string;
  timers: TimersLike;
  /** A hung request is aborted after this long (a transient failure). */
  requestTimeoutMs: number;
}

export interface Transport {
  url(path: string): string;
  request(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response>;
  /** Aborts every request on the wire; answers whether there were any. */
  abortAll(): boolean;
}

export function createTransport({ fetch, baseUrl, timers, requestTimeoutMs }: TransportOptions): Transport {
  const base = baseUrl.replace(/\/$/, '');
  const inFlight = new Set<AbortController>();
  const url = (path: string) => `${base}${path}`;
  return {
    url,
    async request(method, path, headers, body) {
      const controller = new AbortController();
      inFlight.add(controller);
      const timer = timers.setTimeout(() => controller.abort(), requestTimeoutMs);
      try {
        const init: RequestInit = { method, headers: { ...headers }, credentials: 'include', signal: controller.signal };
        if (body instanceof Blob) {
          // Bytes as they are (a picture); the caller's headers carry their Content-Type.
          init.body = body;
        } else if (body !== undefined) {
          (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
          init.body = JSON.stringify(body);
        }
        return await fetch(url(path), init);
      } finally {
        timers.clearTimeout(timer);
        inFlight.delete(controller);
      }
    },
    abortAll() {
      const wasSending = inFlight.size > 0;
      for (const controller of inFlight) controller.abort();
      return wasSending;
    },
  };
}

/** The body as JSON; null when empty or not JSON (a proxy's error page). */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The server's error body, or a plain one naming the status when it sent none. */
export function asApiError(body: unknown, status: number): ApiErrorBody {
  const b = body as Partial<ApiErrorBody> | null;
  if (b && typeof b.message === 'string') return b as ApiErrorBody;
  return { message: `The server refused this change (HTTP ${status})`, code: 'BAD_REQUEST' };
}
