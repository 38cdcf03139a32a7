/**
 * Exactly-once writes (docs/sync-protocol.md#the-server-transaction): a write sent again with the
 * same Idempotency-Key never applies twice and gets the first answer back, whatever it was.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChangesResponse, SERIES_SCOPED_KINDS, newId } from '@chronicler/schema';
import { type SignedIn, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { requestHash } from '../../src/sync/mutation.ts';
import { createHash } from 'node:crypto';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface Call {
  method: 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
}

function send(app: FastifyInstance, who: SignedIn, call: Call, key?: string): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { cookie: who.cookie };
  if (call.payload) headers['content-type'] = 'application/json';
  if (key !== undefined) headers['idempotency-key'] = key;
  return app.inject({ method: call.method, url: call.url, headers, ...(call.payload ? { payload: call.payload } : {}) });
}

async function countRows(app: FastifyInstance, table: 'series' | 'books'): Promise<number> {
  const row = await app.deps.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

const seqNow = async (app: FastifyInstance) =>
  Number((await app.deps.database.db.selectFrom('syncState').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow()).value);

const answerOf = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.body, type: res.headers['content-type'] });

describe('Idempotency-Key', () => {
  it('a create sent twice applies once and answers the same, the second marked replayed', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const create: Call = { method: 'POST', url: '/api/series', payload: { title: 'Once' } };
    const first = await send(t.app, author, create, 'key-1');
    const seqAfterFirst = await seqNow(t.app);
    const second = await send(t.app, author, create, 'key-1');
    expect(first.statusCode).toBe(201);
    expect(answerOf(second)).toEqual(answerOf(first));
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(t.app, 'series')).toBe(1);
    // A replay is not a write: no new seq.
    expect(await seqNow(t.app)).toBe(seqAfterFirst);
  });

  it('the same create sent concurrently has one effect', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const create: Call = { method: 'POST', url: '/api/series', payload: { title: 'Racing' } };
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(t!.app, author, create, 'race')));
    expect(await countRows(t.app, 'series')).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(answerOf(a)))).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(answers[0]!.statusCode).toBe(201);
  });

  it('the same key with a different request is a 422 and applies nothing', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    expect((await send(t.app, author, { method: 'POST', url: '/api/series', payload: { title: 'First' } }, 'k')).statusCode).toBe(201);
    const seq = await seqNow(t.app);
    for (const other of [
      { method: 'POST', url: '/api/series', payload: { title: 'Second' } },
      { method: 'POST', url: '/api/series', payload: { title: 'First', description: 'more' } },
      { method: 'PUT', url: `/api/series/${newId()}`, payload: { title: 'First' } },
    ] as Call[]) {
      const res = await send(t.app, author, other, 'k');
      expect(res.statusCode).toBe(422);
      expect(json(res)).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await countRows(t.app, 'series')).toBe(1);
    expect(await seqNow(t.app)).toBe(seq);
  });

  it('a 4xx answer is recorded and replayed identically, even once the request could succeed', async () => {
    t = await createTestApp();
    const author = await signUp(t.app); // apprentice: one series
    const first = await send(t.app, author, { method: 'POST', url: '/api/series', payload: { title: 'Only' } });
    const create: Call = { method: 'POST', url: '/api/series', payload: { title: 'Over the limit' } };
    const refused = await send(t.app, author, create, 'limit');
    expect(refused.statusCode).toBe(403);
    expect(json(refused).code).toBe('PLAN_LIMIT');

    const missing: Call = { method: 'PUT', url: `/api/books/${newId()}`, payload: { title: 'Ghost' } };
    const notFound = await send(t.app, author, missing, 'ghost');
    expect(notFound.statusCode).toBe(404);

    // Room is made; the replay still answers the recorded refusal and creates nothing.
    expect((await send(t.app, author, { method: 'DELETE', url: `/api/series/${json(first).id}` })).statusCode).toBe(200);
    const replay = await send(t.app, author, create, 'limit');
    expect(answerOf(replay)).toEqual(answerOf(refused));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(answerOf(await send(t.app, author, missing, 'ghost'))).toEqual(answerOf(notFound));
    expect(await countRows(t.app, 'series')).toBe(1);
  });

  it('keys belong to one user: another user with the same key gets their own effect', async () => {
    t = await createTestApp();
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const create: Call = { method: 'POST', url: '/api/series', payload: { title: 'Same body' } };
    const a = await send(t.app, alice, create, 'shared-key');
    const b = await send(t.app, bob, create, 'shared-key');
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(json(b).id).not.toBe(json(a).id);
    expect(json(b).ownerId).toBe(bob.user.id);
    expect(await countRows(t.app, 'series')).toBe(2);
  });

  it('rejects an over-long key', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const res = await send(t.app, author, { method: 'POST', url: '/api/series', payload: { title: 'x' } }, 'k'.repeat(201));
    expect(res.statusCode).toBe(400);
    expect(await countRows(t.app, 'series')).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: any interleaving of repeats equals applying each distinct key once.

type Template =
  | { op: 'createSeries'; series: number }
  | { op: 'createBook'; series: number; book: number }
  | { op: 'renameSeries'; series: number; title: string }
  | { op: 'renameBook'; book: number; title: string }
  | { op: 'deleteBook'; book: number }
  | { op: 'deleteSeries'; series: number };

const title = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0);
const templateArb: fc.Arbitrary<Template> = fc.oneof(
  fc.record({ op: fc.constant('createSeries' as const), series: fc.nat(3) }),
  fc.record({ op: fc.constant('createBook' as const), series: fc.nat(3), book: fc.nat(5) }),
  fc.record({ op: fc.constant('renameSeries' as const), series: fc.nat(3), title }),
  fc.record({ op: fc.constant('renameBook' as const), book: fc.nat(5), title }),
  fc.record({ op: fc.constant('deleteBook' as const), book: fc.nat(5) }),
  fc.record({ op: fc.constant('deleteSeries' as const), series: fc.nat(3) }),
);

/** Calls with fixed ids, so two apps given the same templates address the same rows. */
function callOf(template: Template, seriesIds: string[], bookIds: string[]): Call {
  switch (template.op) {
    case 'createSeries':
      return { method: 'POST', url: '/api/series', payload: { id: seriesIds[template.series], title: `S${template.series}` } };
    case 'createBook':
      return { method: 'POST', url: '/api/books', payload: { id: bookIds[template.book], seriesId: seriesIds[template.series], title: `B${template.book}` } };
    case 'renameSeries':
      return { method: 'PUT', url: `/api/series/${seriesIds[template.series]}`, payload: { title: template.title } };
    case 'renameBook':
      return { method: 'PUT', url: `/api/books/${bookIds[template.book]}`, payload: { title: template.title } };
    case 'deleteBook':
      return { method: 'DELETE', url: `/api/books/${bookIds[template.book]}` };
    case 'deleteSeries':
      return { method: 'DELETE', url: `/api/series/${seriesIds[template.series]}` };
  }
}

/** Every story row the user can see, without the wall-clock stamps and the owner's (per-app) id (their own record differs per app). */
async function visibleState(app: FastifyInstance, who: SignedIn): Promise<unknown> {
  const res = await app.inject({ method: 'GET', url: '/api/sync/changes?since=0&limit=10000', headers: { cookie: who.cookie } });
  const page = json<ChangesResponse>(res);
  return SERIES_SCOPED_KINDS.map((kind) =>
    (page.changes[kind] as Record<string, unknown>[])
      .map(({ createdAt: _c, updatedAt: _u, ownerId: _o, deletedAt, ...rest }): Record<string, unknown> => ({ ...rest, deleted: deletedAt !== null }))
      .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1)),
  );
}

describe('idempotency (property)', () => {
  it('random writes with repeated keys end where each distinct key applied once would', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(templateArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        async (templates, picks) => {
          const seriesIds = Array.from({ length: 4 }, () => newId());
          const bookIds = Array.from({ length: 6 }, () => newId());
          // Each template is one logical request with its own key; `picks` sends them with repeats.
          const sequence = picks.map((p) => p % templates.length);
          const firstOccurrences = sequence.filter((k, i) => sequence.indexOf(k) === i);

          const withRepeats = await createTestApp();
          const once = await createTestApp();
          try {
            const a = await signUp(withRepeats.app, { plan: 'legendary' });
            const b = await signUp(once.app, { plan: 'legendary' });
            const firstAnswer = new Map<number, ReturnType<typeof answerOf>>();
            for (const k of sequence) {
              const res = await send(withRepeats.app, a, callOf(templates[k]!, seriesIds, bookIds), `key-${k}`);
              expect(res.statusCode).toBeLessThan(500);
              const seen = firstAnswer.get(k);
              if (seen) {
                expect(answerOf(res)).toEqual(seen);
                expect(res.headers['idempotent-replayed']).toBe('true');
              } else {
                firstAnswer.set(k, answerOf(res));
              }
            }
            for (const k of firstOccurrences) {
              const res = await send(once.app, b, callOf(templates[k]!, seriesIds, bookIds), `key-${k}`);
              expect(res.statusCode).toBe(firstAnswer.get(k)!.status);
            }
            expect(await visibleState(withRepeats.app, a)).toEqual(await visibleState(once.app, b));
            expect(await seqNow(withRepeats.app)).toBe(await seqNow(once.app));
          } finally {
            await withRepeats.close();
            await once.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('the request hash a key is bound to', () => {
  /** The body's content with keys in one order: what must decide "the same request". */
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
        : value;
  const shuffledKeys = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(shuffledKeys)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, shuffledKeys(v)]))
        : value;

  it('is equal for equal content in any key order and differs for different content (fast-check)', () => {
    const body = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(body, body, (a, b) => {
        expect(requestHash('PUT', '/api/x', shuffledKeys(a))).toBe(requestHash('PUT', '/api/x', a));
        const same = JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
        expect(requestHash('PUT', '/api/x', a) === requestHash('PUT', '/api/x', b)).toBe(same);
      }),
      { numRuns: 500 },
    );
    // Strings that would read alike if concatenated do not collide.
    expect(requestHash('PUT', '/u', { a: 'x', b: 'yz' })).not.toBe(requestHash('PUT', '/u', { a: 'xy', b: 'z' }));
    expect(requestHash('PUT', '/u', ['1'])).not.toBe(requestHash('PUT', '/u', [1]));
    expect(requestHash('PUT', '/u', { a: 1 })).not.toBe(requestHash('PUT', '/v', { a: 1 }));
  });

  it('still recognises a key recorded with the previous hash (sorted-key JSON) as the same request', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const series = json(await send(t.app, author, { method: 'POST', url: '/api/series', payload: { title: 'Draft' } }));
    const rename: Call = { method: 'PUT', url: `/api/series/${series.id}`, payload: { title: 'Before the upgrade', description: 'kept' } };
    const first = await send(t.app, author, rename, 'old-key');
    expect(first.statusCode).toBe(200);
    // Rewrite the record as a server before the "v2:" hash stored it.
    const legacy = createHash('sha256').update(`PUT /api/series/${series.id}\n{"description":"kept","title":"Before the upgrade"}`).digest('hex');
    await t.app.deps.database.db.updateTable('idempotencyKeys').set({ requestHash: legacy }).where('key', '=', 'old-key').execute();
    const replay = await send(t.app, author, rename, 'old-key');
    expect(answerOf(replay)).toEqual(answerOf(first));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const other = await send(t.app, author, { ...rename, payload: { title: 'Something else' } }, 'old-key');
    expect(other.statusCode).toBe(422);
  });
});
