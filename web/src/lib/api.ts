/**
 * The one HTTP client of the web app (spec 000 §7 "Request behaviour shared by all calls").
 *
 * - Every call sends the session cookie (`credentials: 'include'`); a body, when present, is JSON.
 * - Any non-OK answer becomes an ApiError whose message is `${status}: ${body text}` (or the status
 *   text when the body is empty). The parsed server body `{message, code}` is exposed as
 *   `serverMessage` / `code`, and `status` holds the HTTP status, so screens can show the server's
 *   own words.
 * - A request that never reached the server (offline, DNS, CORS, aborted) rejects with NetworkError.
 * - No retries and no refetching here: callers decide (the sync engine owns retry for writes).
 */

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** `message` from the server's `{message, code}` body, when it sent one. */
  readonly serverMessage: string | undefined;
  /** `code` from the server's `{message, code}` body, when it sent one. */
  readonly code: string | undefined;
  /** The raw answer body text. */
  readonly bodyText: string;
  /** The parsed JSON body, when the body was JSON. */
  readonly body: unknown;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.status = status;
    this.bodyText = bodyText;
    let parsed: unknown;
    try {
      parsed = bodyText ? JSON.parse(bodyText) : undefined;
    } catch {
      parsed = undefined;
    }
    this.body = parsed;
    const record = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    this.serverMessage = typeof record.message === 'string' && record.message !== '' ? record.message : undefined;
    this.code = typeof record.code === 'string' ? record.code : undefined;
  }
}

/** The request never got an answer (no network, server unreachable, aborted). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

/** The server's own message for an error, else `fallback`. */
export function serverMessageOf(error: unknown, fallback: string): string {
  return isApiError(error) && error.serverMessage ? error.serverMessage : fallback;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const log =
  import.meta.env.DEV && import.meta.env.MODE !== 'test'
  ? (...args: unknown[]) => console.debug('[api]', ...args)
  : () => undefined;

/** Sends one request and returns the parsed JSON answer (undefined for an empty body). */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const init: RequestInit = { method, headers, credentials: 'include' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (options.signal) init.signal = options.signal;

  log(method, path, body ?? '');
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (cause) {
    log(method, path, 'network error', cause);
    throw new NetworkError(`Network request failed: ${method} ${path}`, { cause });
  }

  let text: string;
  try {
    text = await res.text();
  } catch (cause) {
    throw new NetworkError(`Network request failed while reading ${method} ${path}`, { cause });
  }
  log(method, path, res.status, text.length > 500 ? `${text.slice(0, 500)}…` : text);

  if (!res.ok) throw new ApiError(res.status, res.statusText, text);
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return text as T;
  }
}

export interface GetOptions extends RequestOptions {
  /** 'throw' (default) treats 401 as an error; 'returnNull' yields null instead (spec 000 §7). */
  on401?: 'throw' | 'returnNull';
}

function get<T = unknown>(path: string, options: GetOptions & { on401: 'returnNull' }): Promise<T | null>;
function get<T = unknown>(path: string, options?: GetOptions): Promise<T>;
async function get<T = unknown>(path: string, options: GetOptions = {}): Promise<T | null> {
  try {
    return await apiRequest<T>('GET', path, undefined, options);
  } catch (error) {
    if (options.on401 === 'returnNull' && isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

export const api = {
  get,
  post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, body, options),
  put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, body, options),
  patch: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PATCH', path, body, options),
  delete: <T = unknown>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, undefined, options),
};
