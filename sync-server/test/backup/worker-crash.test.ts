/**
 * Archives are built on worker threads (backup/heavy-work.ts): when the worker building one dies
 * (here: out of its memory, WORKER_MEMORY_MB), that download fails with a clear message and the
 * server goes on serving everyone, the next backups included.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WORKER_CRASHED_MESSAGE } from '../../src/workers/pool.ts';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { insertBook, insertChapter, seedSeries, seedWrite } from '../support/sync-seed.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a worker crash', () => {
  it('fails that one backup with a clear message; the server stays up and the next backup is made', async () => {
    t = await createTestApp({ workerMemoryMb: 20 });
    const heavy = await signUp(t.app, { plan: 'legendary' });
    const seriesId = await seedSeries(t.app, heavy.user.id, 'Long');
    // Three chapters of 4 M characters: their archive needs far more than 20 MB of the worker's heap.
    await seedWrite(t.app, [seriesId], async (w) => {
      const bookId = await insertBook(w, seriesId);
      for (let i = 0; i < 3; i++) await insertChapter(w, seriesId, bookId, `Chapter ${i}`, `${'A long sentence of the saga. '.repeat(140_000)}${i}`, i + 1);
    });
    const light = await signUp(t.app, { plan: 'legendary' });
    await t.app.inject({ method: 'POST', url: '/api/series', headers: light.headers, payload: { title: 'Short' } });

    const failed = await t.app.inject({ method: 'GET', url: '/api/backup', headers: { cookie: heavy.cookie } });
    expect(failed.statusCode).toBe(503);
    expect(json(failed)).toEqual({ message: WORKER_CRASHED_MESSAGE, code: 'INTERNAL' });
    expect(t.app.backupWorkers.crashes).toBe(1);

    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/series', headers: { cookie: light.cookie } })).statusCode).toBe(200);
    const next = await t.app.inject({ method: 'GET', url: '/api/backup', headers: { cookie: light.cookie } });
    expect(next.statusCode).toBe(200);
    expect(next.headers['content-type']).toBe('application/zip');
  }, 120_000);
});
