/**
 * The worker pool (workers/pool.ts): tasks run off the event loop; a task that throws fails with
 * its message; a worker that dies fails only the task it was running, and the pool goes on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WORKER_CRASHED_MESSAGE, WorkerCrashedError, WorkerPool, WorkerTaskError } from '../../src/workers/pool.ts';

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const tasksModule = new URL('../support/pool-tasks.ts', import.meta.url);

describe('worker pool', () => {
  it('runs tasks on its workers, queueing past its size, and carries a thrown error back as its message', async () => {
    pool = new WorkerPool({ tasksModule, size: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => pool!.run<number>('double', i)));
    expect(answers).toEqual([0, 2, 4, 6, 8, 10]);
    const refused = await pool.run('refuse', null).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkerTaskError);
    expect((refused as Error).message).toBe('refused on purpose');
  });

  it('a worker that dies fails the one task it ran with a clear message; the tasks beside and after it are answered', async () => {
    pool = new WorkerPool({ tasksModule, size: 2 });
    const [died, beside] = await Promise.allSettled([pool.run('die', null), pool.run<number>('double', 21)]);
    expect(died.status).toBe('rejected');
    expect((died as PromiseRejectedResult).reason).toBeInstanceOf(WorkerCrashedError);
    expect((died as PromiseRejectedResult).reason.message).toBe(WORKER_CRASHED_MESSAGE);
    expect(beside).toEqual({ status: 'fulfilled', value: 42 });
    expect(pool.crashes).toBe(1);
    expect(await Promise.all([pool.run('double', 1), pool.run('double', 2), pool.run('double', 3)])).toEqual([2, 4, 6]);
  });
});
