/**
 * The status contract of a mutating call (docs/sync-protocol.md#status-contract), shared by the
 * sync client (what to do with an answer) and the server (where a batch stops):
 * - 2xx: applied (merged, or kept as a conflict copy: a conflict is not an error);
 * - 401: auth — pause sync and ask for sign-in, never drop;
 * - 408 / 429 / 5xx / no answer at all (network failure, timeout): transient — retry with capped
 *   exponential backoff and jitter, honouring Retry-After;
 * - any other answer (4xx, and the odd 1xx/3xx that is no contract answer): permanent — it can
 *   never succeed, so it is recorded and the client dead-letters the entry.
 */

export type StatusClass = 'applied' | 'permanent' | 'auth' | 'transient';

/** A request that got no HTTP answer (fetch rejected, offline, timed out). */
export const NETWORK_FAILURE = 'network' as const;

export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Classifies an HTTP status, or a network failure, by the status contract. */
export function classifyStatus(status: number | typeof NETWORK_FAILURE): StatusClass {
  if (status === NETWORK_FAILURE) return 'transient';
  if (status >= 200 && status < 300) return 'applied';
  if (status === 401) return 'auth';
  if (isTransientStatus(status)) return 'transient';
  return 'permanent';
}

/**
 * Classifies the answer to one outbox entry: as `classifyStatus`, except that a DELETE answered
 * 404 is applied — the row is already gone, which is what the delete wanted.
 */
export function classifyMutationAnswer(method: string, status: number | typeof NETWORK_FAILURE): StatusClass {
  if (status === 404 && method.toUpperCase() === 'DELETE') return 'applied';
  return classifyStatus(status);
}

// ---- backoff -------------------------------------------------------------------------------

export const BACKOFF_MIN_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
/** A Retry-After further away than this is capped (a misconfigured proxy must not park the outbox for days). */
export const RETRY_AFTER_MAX_MS = 60 * 60_000;

/**
 * Capped exponential backoff with jitter: attempt n waits between half and all of
 * min(60 s, 1 s × 2^(n−1)) — attempt 1 → 0.5–1 s, doubling, capped at 60 s. `random` returns a
 * number in [0, 1) (injectable so tests and simulations are deterministic).
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as milliseconds from `now` (delay-seconds or an HTTP date); null when absent or invalid. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(RETRY_AFTER_MAX_MS, Number(trimmed) * 1000);
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name; without this
  // check Date.parse would read '-5' as the year 5 BC.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, date - now));
}

/** How long to wait before retrying a transient answer: the backoff, or Retry-After when that is longer. */
export function retryDelayMs(
  attempts: number,
  random: () => number,
  retryAfter: string | null | undefined,
  now: number,
): number {
  return Math.max(backoffMs(attempts, random), parseRetryAfter(retryAfter, now) ?? 0);
}
