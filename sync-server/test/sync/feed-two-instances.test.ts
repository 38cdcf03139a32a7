/**
 * The changes feed never skips a row (docs/sync-protocol.md): with writers on two instances of one
 * database committing concurrently and a reader polling the feed on either instance in small pages,
 * the reader ends with every row's last version, and never receives one version twice or an older
 * one after a newer. On PostgreSQL this holds because a write takes its seq under the seq row's
 * lock, so seqs follow commit order (db/postgres/write-transactions.ts): a cursor past seq N has
 * seen every row stamped N or less.
 */
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChangesResponse } from '@chronicler/schema';
import { createTestAppPair, json, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';

type Op = { instance: 0 | 1; action: 'create' | 'update' | 'delete'; target: number; text: string };

const op: fc.Arbitrary<Op> = fc.record({
  instance: fc.constantFrom(0 as const, 1 as const),
  action: fc.constantFrom('create' as const, 'create' as const, 'update' as const, 'update' as const, 'delete' as const),
  target: fc.nat(40),
  text: fc.string({ maxLength: 40 }),
});

describe('the changes feed under concurrent writers on two instances', () => {
  it('brings a polling reader every row’s last version, each version once', async () => {
    const pair = await createTestAppPair();
    try {
      const [a, b] = pair.apps;
      const owner = await signUp(a, { plan: 'legendary' });
      const on = (i: 0 | 1) => storyClient(i === 0 ? a : b, owner);
      const { series, book } = await on(0).seriesWithChapter();
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 30 }), fc.integer({ min: 1, max: 4 }), async (ops, pageSize) => {
          const start = await pull(a, owner.cookie, 0, 1000);
          const seen = new Map<string, number>();
          const ids: string[] = [];
          let writing = true;
          let cursor = 0;
          let pulls = 0;
          const take = (page: ChangesResponse) => {
            for (const row of [...page.changes.books, ...page.changes.chapters, ...page.changes.series] as { id: string; rev: number }[]) {
              const before = seen.get(row.id);
              // Never a version twice, never an older one after a newer.
              expect(before === undefined || row.rev > before, `${row.id} at ${row.rev} after ${before}`).toBe(true);
              seen.set(row.id, row.rev);
            }
            cursor = page.cursor;
          };
          take(start);
          if (process.env.FEED_DEBUG) console.log('run', ops.length, pageSize);
          // Four lanes of writes, each in order, all at once, spread over both instances.
          const lanes = [0, 1, 2, 3].map((lane) => ops.filter((_, i) => i % 4 === lane));
          const writers = Promise.all(
            lanes.map(async (lane) => {
              for (const { instance, action, target, text } of lane) {
                const client = on(instance);
                if (action === 'create' || ids.length === 0) {
                  const res = await client.post('/api/chapters', { bookId: book.id, title: `c${target}`, content: text });
                  expect(res.statusCode, res.body).toBe(201);
                  ids.push(json(res).id);
                } else if (action === 'update') {
                  const res = await client.put(`/api/chapters/${ids[target % ids.length]}`, { content: text });
                  expect([200, 404, 409]).toContain(res.statusCode);
                } else {
                  const res = await client.del(`/api/chapters/${ids[target % ids.length]}`);
                  expect([200, 204, 404]).toContain(res.statusCode);
                }
              }
            }),
          ).finally(() => (writing = false));
          const reader = (async () => {
            while (writing) {
              // A poller waits between pulls (and lets the writers' turns come: db/group-commit.ts waits a turn).
              await new Promise((resolve) => setTimeout(resolve, 1));
              let page: ChangesResponse;
              do {
                page = await pull(pulls++ % 2 === 0 ? a : b, owner.cookie, cursor, pageSize);
                take(page);
              } while (page.hasMore);
            }
          })();
          await Promise.all([writers, reader]);
          let page: ChangesResponse;
          do {
            page = await pull(pulls++ % 2 === 0 ? a : b, owner.cookie, cursor, pageSize);
            take(page);
          } while (page.hasMore);
          // Every chapter of the book, at its last version (deleted ones as tombstones).
          const rows = await a.deps.database.db.selectFrom('chapters').select(['id', 'rev']).where('seriesId', '=', series.id).execute();
          for (const row of rows) expect(seen.get(row.id), row.id).toBe(Number(row.rev));
        }),
        { numRuns: Number(process.env.FEED_RUNS ?? 12) },
      );
    } finally {
      await pair.close();
    }
  });
});

async function pull(app: FastifyInstance, cookie: string, since: number, limit: number): Promise<ChangesResponse> {
  const res = await app.inject({ method: 'GET', url: `/api/sync/changes?since=${since}&limit=${limit}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return json<ChangesResponse>(res);
}
