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
 * Code already inside a shared transaction (a batch request, itself one member) runs its write
 * in a savepoint of that transaction straight away.
 */
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import { inSharedTransaction, runInSharedTransaction } from './shared-transaction.ts';

export interface GroupCommitLimits {
  maxMembers: number;
  maxWorkMs: number;
}

export const GROUP_COMMIT_LIMITS: GroupCommitLimits = { maxMembers: 64, maxWorkMs: 10 };

/** The COMMIT of a write's group failed: nothing of it was applied; the write may be retried. */
export class CommitFailedError extends Error {
  constructor(cause: unknown) {
    super('The write could not be committed', { cause });
    this.name = 'CommitFailedError';
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Member {
  work: () => Promise<unknown>;
  outcome?: Outcome;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommitStats {
  /** Groups whose COMMIT succeeded. */
  commits: number;
  /** Members those groups carried. */
  members: number;
  /** Groups whose COMMIT failed (every member answered CommitFailedError). */
  failedCommits: number;
}

/** One event-loop turn: requests whose bytes have arrived get as far as joining the queue. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class GroupCommit {
  private readonly queue: Member[] = [];
  private draining = false;
  readonly stats: GroupCommitStats = { commits: 0, members: 0, failedCommits: 0 };

  constructor(
    private readonly db: Kysely<any>,
    private readonly limits: GroupCommitLimits = GROUP_COMMIT_LIMITS,
  ) {}

  /**
   * Runs `work` in its own savepoint of the next group's transaction and answers its result (or
   * its error) once the group has committed. A throwing `work` is rolled back alone.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (inSharedTransaction()) return this.db.transaction().execute(() => work());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Writes queued for the next group. */
  get waiting(): number {
    return this.queue.length;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.commitGroup();
    } finally {
      this.draining = false;
    }
  }

  private async commitGroup(): Promise<void> {
    const members: Member[] = [];
    const started = performance.now();
    let failure: unknown;
    let failed = false;
    try {
      await runInSharedTransaction(async () => {
        for (;;) {
          // An empty queue gets one more turn of the event loop before the group commits.
          if (this.queue.length === 0) await nextTurn();
          const member = this.queue.shift();
          if (!member) break;
          members.push(member);
          try {
            member.outcome = { ok: true, value: await this.db.transaction().execute(() => member.work()) };
          } catch (error) {
            member.outcome = { ok: false, error };
          }
          if (members.length >= this.limits.maxMembers || performance.now() - started >= this.limits.maxWorkMs) break;
        }
      });
    } catch (error) {
      failed = true;
      failure = error;
    }
    if (failed) this.stats.failedCommits += 1;
    else {
      this.stats.commits += 1;
      this.stats.members += members.length;
    }
    for (const member of members) {
      const outcome = member.outcome!;
      if (failed) member.reject(new CommitFailedError(failure));
      else if (outcome.ok) member.resolve(outcome.value);
      else member.reject(outcome.error);
    }
  }
}
