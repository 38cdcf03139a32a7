import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, signUp } from './support/helpers.ts';

// Found by review of the fuzzing: a 100,000-level body inside a batch entry reached recursive
// code and answered 500. Every JSON body is now depth-checked once, at parse time.
describe('deeply nested JSON bodies', () => {
  let ctx: Awaited<ReturnType<typeof createTestApp>>;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestApp();
    ({ headers } = await signUp(ctx.app, { plan: 'legendary' }));
  });
  afterAll(() => ctx.close());

  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  test.each([
    ['POST', '/api/series', (d: string) => `{"title":"x","description":${d}}`],
    ['POST', '/api/sync/batch', (d: string) => `{"entries":[{"method":"POST","path":"/api/series","headers":{},"body":{"title":"x","description":${d}}}]}`],
  ] as const)('%s %s answers 400 with a clear message, never 5xx', async (method, url, body) => {
    for (const depth of [40, 3_000, 100_000]) {
      const res = await ctx.app.inject({ method, url, headers: { ...headers, 'idempotency-key': `deep-${url}-${depth}` }, payload: body(deep(depth)) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: 'The request body is nested more than 32 levels deep' });
    }
  });

  test('ordinary nesting is untouched', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/series', headers, payload: { title: 'Saga' } });
    expect(res.statusCode).toBe(201);
  });
});
