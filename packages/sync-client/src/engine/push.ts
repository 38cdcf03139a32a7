/**
 * Push (docs/sync-protocol.md#sending): the outbox in order, one REST call per entry — or, for a
 * backlog, through POST /api/sync/batch (push-batch.ts). Each answer is handled by the shared
 * status contract: applied → acknowledged (rebase); auth → paused, nothing dropped; transient → the
 * head waits out a backoff (Retry-After honoured) and holds the entries behind it; permanent →
 * dead-lettered with its dependants.
 */
import { backoffMs, classifyMutationAnswer, retryDelayMs } from '@chronicler/schema';
import { type OutboxEntry, readSyncState } from '../db.ts';
import { acknowledgeAll } from './acknowledge.ts';
import { type EngineContext, OFFLINE_PUSH_MESSAGE, type PushResult } from './context.ts';
import { rejectEntry } from './dead-letters.ts';
import { createBatchPush } from './push-batch.ts';
import { asApiError, readJson } from './transport.ts';

export interface PushOptions {
  /** Backlogs at least this long go through POST /api/sync/batch when the server has it. */
  batchThreshold: number;
  batchSize: number;
}

export interface Pusher {
  /** Sends until the outbox is empty, paused, stopped, or waiting for a retry. */
  cycle(): Promise<PushResult>;
  /** Entries a previous leader (a closed tab, a crash) left in flight go again; the server replays them. */
  recoverInflight(): Promise<void>;
  /** A new leadership: recover again on the next cycle. */
  forgetRecovery(): void;
}

type SendOutcome = 'acked' | 'rejected' | { transientUntil: number } | 'auth' | 'stopped';

export function createPusher(ctx: EngineContext, { batchThreshold, batchSize }: PushOptions): Pusher {
  const { db, now, random, status, flags } = ctx;
  const batch = createBatchPush(ctx, batchSize);
  let recovered = false;

  /** Marks the head inflight and answers it as it will be sent; null when empty or not due. */
  async function takeHead(): Promise<{ entry: OutboxEntry | null; waitUntil: number | null }> {
    return db.transaction('rw', db.outbox, async () => {
      const head = await db.outbox.orderBy('seq').first();
      if (!head) return { entry: null, waitUntil: null };
      if (head.nextAttemptAt > now()) return { entry: null, waitUntil: head.nextAttemptAt };
      head.status = 'inflight';
      head.attempts += 1;
      await db.outbox.put(head);
      return { entry: head, waitUntil: null };
    });
  }

  /** Puts an entry back after a transient failure, with its next attempt time. */
  async function releaseHead(entry: OutboxEntry, delayMs: number, error: string): Promise<number> {
    const at = now() + delayMs;
    await db.outbox.update(entry.seq!, { status: 'pending', nextAttemptAt: at, lastError: error });
    return at;
  }

  async function sendOne(entry: OutboxEntry, clientId: string): Promise<SendOutcome> {
    const headers: Record<string, string> = {
      'Idempotency-Key': entry.idemKey,
      'X-Client-Id': clientId,
      'X-Mutation-Id': String(entry.mutationId),
    };
    if (entry.baseRev !== null && entry.kind === 'update') headers['X-Base-Rev'] = String(entry.baseRev);
    let response: Response;
    try {
      response = await ctx.transport.request(entry.method, entry.path, headers, entry.body);
    } catch (error) {
      if (flags.stopped) return 'stopped';
      ctx.noteNetworkTrouble(OFFLINE_PUSH_MESSAGE);
      const until = await releaseHead(entry, backoffMs(entry.attempts, random), String((error as Error)?.message ?? error));
      return { transientUntil: until };
    }
    if (flags.stopped) return 'stopped';
    const body = await readJson(response).catch(() => null);
    if (flags.stopped) return 'stopped';
    switch (classifyMutationAnswer(entry.method, response.status)) {
      case 'applied':
        // A DELETE answered 404: already gone on the server, the delete's goal is reached.
        await acknowledgeAll(ctx, [{ entry, body: response.ok ? body : null, status: response.status }]);
        return 'acked';
      case 'auth':
        await db.outbox.update(entry.seq!, { status: 'pending' });
        ctx.pauseForAuth();
        return 'auth';
      case 'transient': {
        const delay = retryDelayMs(entry.attempts, random, response.headers.get('Retry-After'), now());
        status.getState().reportError({ kind: 'server', message: 'The server is busy. Your changes are saved on this device and will be retried.', at: now() });
        return { transientUntil: await releaseHead(entry, delay, `HTTP ${response.status}`) };
      }
      case 'permanent':
        await rejectEntry(ctx, entry, response.status, asApiError(body, response.status));
        return 'rejected';
    }
  }

  async function recoverInflight(): Promise<void> {
    if (recovered) return;
    recovered = true;
    await db.outbox.where('status').equals('inflight').modify({ status: 'pending' });
  }

  async function cycle(): Promise<PushResult> {
    const result: PushResult = { acked: 0, rejected: 0, retryAt: null, paused: false };
    await recoverInflight();
    const { clientId } = await readSyncState(db);
    while (!flags.stopped && !flags.paused) {
      if (batch.available !== false && (await db.outbox.count()) >= batchThreshold) {
        const batched = await batch.send(clientId, result);
        if (batched === 'done') continue;
        if (batched === 'stop') break;
      }
      const { entry, waitUntil } = await takeHead();
      if (!entry) {
        result.retryAt = waitUntil;
        break;
      }
      const outcome = await sendOne(entry, clientId);
      if (outcome === 'acked') {
        result.acked += 1;
        ctx.clearTransientError();
      } else if (outcome === 'rejected') result.rejected += 1;
      else if (outcome === 'auth') {
        result.paused = true;
        break;
      } else if (outcome === 'stopped') break;
      else {
        result.retryAt = outcome.transientUntil;
        break;
      }
    }
    return result;
  }

  return {
    cycle,
    recoverInflight,
    forgetRecovery() {
      recovered = false;
    },
  };
}
