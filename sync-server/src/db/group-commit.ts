/**
 * Group commit: concurrent writes share one transaction and one durable COMMIT.
 *
 * With synchronous=FULL every COMMIT waits for an fsync (0.3 ms on a quiet disk, several ms on a
 * busy one), and better-sqlite3 waits with the event loop blocked. Committing each request on its
 * own caps writes at one fsync each. Here writes queue up (in our code, not in the database) and
 * run one after another inside ONE transaction, each in its own savepoint, and the group commits
 * once. Every member hears its outcome only after that COMMIT succeeded, so an acknowledged write
 * is always durable; when the COMMIT fails, every member fails with CommitFailedError (a 5xx: the
 * client retries, and nothing of the group was applied).
 *
 * Members run strictly one at a time, so a group behaves exactly like its members committed in
 * order, except that they become durable together. A group stops taking members at
 * `maxMembers` or after `maxWorkMs` of work, so reads waiting for the connection are not starved.
 *
 * Members get the transaction explicitly (no AsyncLocalStorage: in Node 20 an active one makes
 * every promise in the process about three times dearer). Code already inside a shared
 * transaction (db/shared-transaction.ts: a batch request) runs its write as a savepoint of that
 * transaction straight away; the batch commits once, as its own transaction.
 */
import { performance } from 'node:perf_hooks';
import type { ControlledTransaction, Kysely } from 'kysely';
import type { DB } from './tables.ts';
import { inSharedTransaction } from './shared-transaction.ts';
import { enableDirectStatementsIn, execStatement } from './sqlite/direct-statements.ts';
import { inSavepoint } from './savepoint.ts';

/** The open transaction a write runs in. Savepoints nest inside it (`trx.savepoint(name)`). */
export type WriteTransaction = ControlledTransaction<DB>;

export interface GroupCommitLimits {
  maxMembers: number;
  maxWorkMs: number;
  /**
   * How long a group smaller than the one before it may wait for more writes once the queue is
   * empty (0: it commits at once). Writes that arrive together (authors answered by one COMMIT
   * save again at about the same time) reach the server a little apart: with ten busy writers,
   * a third of the groups committed the wave's first write alone, an fsync for one write, and the
   * next group the other nine. The wait ends as soon as a write arrives or the bound passes.
   */
  maxWaitMs?: number;
}

export const GROUP_COMMIT_LIMITS: GroupCommitLimits = { maxMembers: 64, maxWorkMs: 10, maxWaitMs: 1 };

/** The COMMIT of a write's group failed: nothing of it was applied; the write may be retried. */
export class CommitFailedError extends Error {
  constructor(cause: unknown) {
    super('The write could not be committed', { cause });
    this.name = 'CommitFailedError';
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
type Work = (trx: WriteTransaction) => Promise<unknown>;

interface Member {
  work: Work;
  outcome?: Outcome;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommitStats {
  /** Groups whose COMMIT succeeded. */
  commits: number;
  /** Members those groups carried. */
  members: number;
  /** Groups whose COMMIT (or BEGIN) failed: every member answered CommitFailedError. */
  failedCommits: number;
}

/** One event-loop turn: requests whose bytes have arrived get as far as joining the queue. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const MEMBER_SAVEPOINT = 'group_member';

export class GroupCommit {
  private readonly queue: Member[] = [];
  private draining = false;
  /** Members of the last group committed: how many writes tend to arrive together now. */
  private lastGroupSize = 1;
  /** Ends the group's wait for another write (waitForWrite), when one is waiting. */
  private arrived: (() => void) | null = null;
  readonly stats: GroupCommitStats = { commits: 0, members: 0, failedCommits: 0 };

  constructor(
    private readonly db: Kysely<DB>,
    private readonly limits: GroupCommitLimits = GROUP_COMMIT_LIMITS,
  ) {}

  /**
   * Runs `work` in its own savepoint of the next group's transaction and answers its result (or
   * its error) once the group has committed. A throwing `work` is rolled back alone.
   */
  run<T>(work: (trx: WriteTransaction) => Promise<T>): Promise<T> {
    if (inSharedTransaction()) return this.runInScope(work);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.arrived?.();
      if (!this.draining) void this.drain();
    });
  }

  /** Writes queued for the next group. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Inside a shared transaction, BEGIN and COMMIT become a savepoint and its release. */
  private async runInScope<T>(work: (trx: WriteTransaction) => Promise<T>): Promise<T> {
    const trx = await this.db.startTransaction().execute();
    let value: T;
    try {
      value = await work(trx);
    } catch (error) {
      await trx.rollback().execute();
      throw error;
    }
    await trx.commit().execute();
    return value;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.commitGroup();
    } finally {
      this.draining = false;
    }
  }

  /** Resolves when a write joins the queue, or after maxWaitMs (never past the group's maxWorkMs). */
  private waitForWrite(started: number): Promise<void> {
    const bound = Math.min(this.limits.maxWaitMs ?? 0, this.limits.maxWorkMs - (performance.now() - started));
    if (bound <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.arrived = null;
        resolve();
      };
      const timer = setTimeout(done, bound);
      this.arrived = done;
    });
  }

  private async commitGroup(): Promise<void> {
    const members: Member[] = [this.queue.shift()!];
    const started = performance.now();
    let trx: WriteTransaction | undefined;
    let failure: { error: unknown } | null = null;
    try {
      trx = await this.db.startTransaction().setAccessMode('read write').execute();
      enableDirectStatementsIn(trx, this.db);
      for (;;) {
        const member = members.at(-1)!;
        member.outcome = await runMember(trx, member.work);
        if (members.length >= this.limits.maxMembers || performance.now() - started >= this.limits.maxWorkMs) break;
        // An empty queue gets one more turn of the event loop before the group commits, and a
        // group smaller than the last one waits a little longer for the rest of its wave.
        if (this.queue.length === 0) await nextTurn();
        if (this.queue.length === 0 && members.length < this.lastGroupSize) await this.waitForWrite(started);
        const next = this.queue.shift();
        if (!next) break;
        members.push(next);
      }
      await trx.commit().execute();
    } catch (error) {
      failure = { error };
      // A failed COMMIT leaves the transaction open (and the connection held): end it.
      if (trx && !trx.isRolledBack) await trx.rollback().execute().catch(() => undefined);
    }
    if (failure) this.stats.failedCommits += 1;
    else {
      this.stats.commits += 1;
      this.stats.members += members.length;
    }
    this.lastGroupSize = members.length;
    for (const member of members) {
      const outcome = member.outcome;
      if (failure || !outcome) member.reject(new CommitFailedError(failure?.error));
      else if (outcome.ok) member.resolve(outcome.value);
      else member.reject(outcome.error);
    }
  }
}

/** One member in its savepoint: released when it succeeds, rolled back alone when it throws. */
async function runMember(trx: WriteTransaction, work: Work): Promise<Outcome> {
  try {
    return { ok: true, value: await inSavepoint((sql) => execStatement(trx, sql), MEMBER_SAVEPOINT, () => work(trx)) };
  } catch (error) {
    return { ok: false, error };
  }
}
