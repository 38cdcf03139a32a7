/**
 * Heavy work off the event loop (docs/decisions/0015-isolation.md): a small pool of worker threads,
 * sized to the machine, that runs named tasks of one tasks module (the module's `tasks` export: a
 * record of functions from a structured-cloneable input to a result). The event loop only hands
 * the input over and takes the answer back: building an archive of three 2.2 M-character chapters
 * held every other author's request for seconds on the main thread.
 *
 * - Workers start on first use and stay (a start loads the module graph: tens to hundreds of ms);
 *   they do not keep the process alive.
 * - Tasks queue when every worker is busy, in arrival order: one author's work waits behind
 *   another's, never in front of another's GET.
 * - A worker that dies while running a task (out of memory, a crash in native code) fails that
 *   task with WorkerCrashedError — a clear message for that one request — and is replaced; the
 *   server and the other tasks go on.
 * - The module is loaded with tsx's `tsImport`, so the same TypeScript source runs in the server
 *   (`tsx src/main.ts`) and under the tests.
 */
import os from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';

export const WORKER_CRASHED_MESSAGE = 'The server could not finish this work. Please try again; if it keeps failing, contact support.';

export class WorkerCrashedError extends Error {
  constructor(readonly task: string) {
    super(WORKER_CRASHED_MESSAGE);
    this.name = 'WorkerCrashedError';
  }
}

/** An error a task threw, carried back by its message (the worker's stack stays there). */
export class WorkerTaskError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

/** Workers for a machine: one core is left to the event loop, at most 4. */
export function poolSizeForMachine(): number {
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

export interface WorkerPoolOptions {
  /** The tasks module: its `tasks` export names the functions a worker runs. */
  tasksModule: URL;
  size?: number;
  /** Each worker's memory: a task past it kills its worker, and fails alone. */
  resourceLimits?: ResourceLimits;
}

/** tsx's ESM API (its CommonJS build cannot load its own ESM half from a worker). */
const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;

/**
 * The worker's side, an ES module: load the tasks module through tsx, then answer each
 * `{id, task, input}` with `{id, value}` (ArrayBuffers of a Uint8Array result transferred, not
 * copied) or `{id, error}`.
 */
const WORKER_SOURCE = `
import { parentPort, workerData } from 'node:worker_threads';
const { tsImport } = await import(workerData.tsxApi);
await tsImport(workerData.tasksModule, workerData.tasksModule).then((module) => {
  const tasks = module.tasks ?? module.default?.tasks;
  parentPort.on('message', async ({ id, task, input }) => {
    try {
      const run = tasks[task];
      if (typeof run !== 'function') throw new Error('No such task: ' + task);
      const value = await run(input);
      const transfer = value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? [value.buffer] : [];
      parentPort.postMessage({ id, value }, transfer);
    } catch (error) {
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  parentPort.postMessage({ ready: true });
}, (error) => { throw error; });
`;

interface Job {
  id: number;
  task: string;
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface PooledWorker {
  worker: Worker;
  ready: boolean;
  job: Job | null;
}

export class WorkerPool {
  private readonly size: number;
  private readonly workers = new Set<PooledWorker>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers that died while running a task (tests, metrics). */
  crashes = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    this.size = options.size ?? poolSizeForMachine();
  }

  /** Runs `task` of the tasks module on a worker with `input` (structured-cloned), answering its result. */
  run<T>(task: string, input: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new WorkerCrashedError(task));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, input, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Tasks waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new WorkerCrashedError(job.task));
    await Promise.all([...this.workers].map((w) => w.worker.terminate()));
    this.workers.clear();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = [...this.workers].find((w) => w.ready && w.job === null);
      if (idle) {
        const job = this.queue.shift()!;
        idle.job = job;
        idle.worker.ref();
        idle.worker.postMessage({ id: job.id, task: job.task, input: job.input });
        continue;
      }
      const starting = [...this.workers].some((w) => !w.ready);
      if (this.workers.size < this.size && !starting) this.start();
      return;
    }
  }

  private start(): void {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER_SOURCE)}`), {
      workerData: { tsxApi, tasksModule: this.options.tasksModule.href },
      resourceLimits: this.options.resourceLimits,
      // Not the server's flags (a tsx loader, an inspector): the worker loads its module itself.
      execArgv: [],
    });
    worker.unref();
    const pooled: PooledWorker = { worker, ready: false, job: null };
    this.workers.add(pooled);
    worker.on('message', (message: { ready?: true; id?: number; value?: unknown; error?: string }) => {
      if (message.ready) {
        pooled.ready = true;
        this.dispatch();
        return;
      }
      const job = pooled.job;
      if (!job || job.id !== message.id) return;
      pooled.job = null;
      worker.unref();
      if (message.error !== undefined) job.reject(new WorkerTaskError(message.error));
      else job.resolve(message.value);
      this.dispatch();
    });
    const gone = () => {
      if (!this.workers.delete(pooled)) return;
      const job = pooled.job;
      pooled.job = null;
      if (job) {
        this.crashes += 1;
        job.reject(new WorkerCrashedError(job.task));
      } else if (!pooled.ready) {
        // It died loading its module: the tasks waiting would wait for ever on its replacements.
        for (const waiting of this.queue.splice(0)) waiting.reject(new WorkerCrashedError(waiting.task));
      }
      if (!this.closed) this.dispatch();
    };
    worker.on('error', gone);
    worker.on('exit', gone);
  }
}
