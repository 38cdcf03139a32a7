import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BACKOFF_MAX_MS,
  BACKOFF_MIN_MS,
  RETRY_AFTER_MAX_MS,
  backoffMs,
  classifyMutationAnswer,
  classifyStatus,
  isTransientStatus,
  parseRetryAfter,
  retryDelayMs,
} from './sync-status.ts';

describe('status classification', () => {
  it('follows the status contract', () => {
    expect([200, 201, 204, 299].map(classifyStatus)).toEqual(['applied', 'applied', 'applied', 'applied']);
    expect(classifyStatus(401)).toBe('auth');
    expect([408, 429, 500, 502, 503, 504, 599].map(classifyStatus)).toEqual(Array(7).fill('transient'));
    expect(classifyStatus('network')).toBe('transient');
    expect([400, 402, 403, 404, 409, 410, 413, 422].map(classifyStatus)).toEqual(Array(8).fill('permanent'));
    expect([100, 301, 304].map(classifyStatus)).toEqual(['permanent', 'permanent', 'permanent']);
  });

  it('isTransientStatus agrees with classifyStatus on every status', () => {
    for (let s = 100; s < 600; s++) expect(isTransientStatus(s)).toBe(classifyStatus(s) === 'transient');
  });

  it('a DELETE answered 404 is applied (already gone); other methods keep the contract', () => {
    expect(classifyMutationAnswer('DELETE', 404)).toBe('applied');
    expect(classifyMutationAnswer('delete', 404)).toBe('applied');
    expect(classifyMutationAnswer('PUT', 404)).toBe('permanent');
    expect(classifyMutationAnswer('DELETE', 403)).toBe('permanent');
    expect(classifyMutationAnswer('DELETE', 'network')).toBe('transient');
    expect(classifyMutationAnswer('POST', 201)).toBe('applied');
  });
});

describe('backoff', () => {
  it('doubles from 1 s and caps at 60 s, with jitter down to half', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffMs(n, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    expect(backoffMs(3, () => 0)).toBe(2_000);
    expect(backoffMs(1, () => 0)).toBe(500);
    expect(backoffMs(30, () => 1)).toBe(60_000);
    expect(backoffMs(0, () => 0.5)).toBe(750);
  });

  it('stays within [ceiling/2, ceiling] for any attempt and random draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 10_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, n - 1));
        const wait = backoffMs(n, () => r);
        expect(wait).toBeGreaterThanOrEqual(Math.round(ceiling / 2));
        expect(wait).toBeLessThanOrEqual(ceiling);
        expect(wait).toBeLessThanOrEqual(BACKOFF_MAX_MS);
      }),
      { numRuns: 1_000 },
    );
  });

  it('with the same draw, a later attempt never waits less (monotone up to the cap)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (a, b, r) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(backoffMs(lo, () => r)).toBeLessThanOrEqual(backoffMs(hi, () => r));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('Retry-After', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wednesday, 21-Oct-15 07:28:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed Oct 21 07:28:10 2015', now)).not.toBeNull();
  });

  it('a date in the past means now; a huge wait is capped at an hour', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999999', now)).toBe(RETRY_AFTER_MAX_MS);
    expect(parseRetryAfter('Wed, 21 Oct 2099 07:28:10 GMT', now)).toBe(RETRY_AFTER_MAX_MS);
  });

  it('is null when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });

  it('the retry delay is the backoff or the Retry-After, whichever is longer', () => {
    expect(retryDelayMs(1, () => 0, null, now)).toBe(500);
    expect(retryDelayMs(1, () => 0, '30', now)).toBe(30_000);
    expect(retryDelayMs(8, () => 1, '30', now)).toBe(60_000);
  });
});
