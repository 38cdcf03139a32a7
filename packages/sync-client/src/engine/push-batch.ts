/**
 * A large backlog in one request: POST /api/sync/batch runs each entry through its own REST route
 * (same handler, same idempotency) in one server transaction and answers `[{status, body}]` in
 * order — shorter when it stopped at a transient answer. Each answer then goes through the same
 * status contract as a single request's; consecutive successes are acknowledged together.
 */
import { backoffMs, classifyMutationAnswer, classifyStatus, retryDelayMs } from '@chronicler/schema';
import type { OutboxEntry } from '../db.ts';
import type { Ack } from '../acks.ts';
import { acknowledgeAll } from './acknowledge.ts';
import { type EngineContext, OFFLINE_PUSH_MESSAGE, type PushResult } from './context.ts';
import { rejectEntry } from './dead-letters.ts';
import { asApiError, readJson } from './transport.ts';

/**
 * 'fallback': no batch endpoint (404/405, remembered) or nothing to batch — send one by one;
 * 'done': handled, loop again; 'stop': paused, stopped or waiting for a retry (`result.retryAt`).
 */
export type BatchOutcome = 'done' | 'fallback' | 'stop';

export interface BatchPush {
  /** null: unknown; false after a 404/405 (the server has no batch endpoint). */
  readonly available: boolean | null;
  send(clientId: string, result: PushResult): Promise<BatchOutcome>;
}

/** Which entries of a batch go back to pending (indexes into the batch), and when to retry. */
interface PutBack {
  from: number;
  notRunFrom: number;
  retryAt?: number;
}

export function createBatchPush(ctx: EngineContext, batchSize: number): BatchPush {
  const { db, now, random, flags } = ctx;
  let available: boolean | null = null;

  /** Marks up to `batchSize` due entries inflight; a chained entry (needs the answer before it) ends the batch. */
  async function takeDue(): Promise<OutboxEntry[]> {
    return db.transaction('rw', db.outbox, async () => {
      const all = await db.outbox.orderBy('seq').limit(batchSize).toArray();
      const due: OutboxEntry[] = [];
      for (const e of all) {
        if (e.nextAttemptAt > now() || (e.chained && due.length > 0)) break;
        due.push({ ...e, status: 'inflight', attempts: e.attempts + 1 });
      }
      if (due.length >= 2) await db.outbox.bulkPut(due);
      return due;
    });
  }

  /**
   * Entries from `from` back to pending. Those at or after `notRunFrom` never reached a handler
   * (the server answered for fewer), so they get their attempt back and may still be coalesced
   * into; the others must never change. `retryAt` delays the first one still in the outbox.
   */
  async function putBack(entries: readonly OutboxEntry[], { from, notRunFrom, retryAt: at = 0 }: PutBack): Promise<void> {
    await db.transaction('rw', db.outbox, async () => {
      let first = true;
      for (const [i, e] of entries.entries()) {
        if (i < from || !(await db.outbox.get(e.seq!))) continue;
        const next: OutboxEntry = { ...e, status: 'pending', attempts: i >= notRunFrom ? e.attempts - 1 : e.attempts };
        if (first && at > 0) next.nextAttemptAt = at;
        first = false;
        await db.outbox.put(next);
      }
    });
  }

  function requestBody(entries: readonly OutboxEntry[]) {
    return {
      entries: entries.map((e) => ({
        method: e.method,
        path: e.path,
        headers: {
          idempotencyKey: e.idemKey,
          mutationId: String(e.mutationId),
          ...(e.baseRev !== null && e.kind === 'update' ? { baseRev: e.baseRev } : {}),
        },
        ...(e.body !== undefined ? { body: e.body } : {}),
      })),
    };
  }

  /** Handles the answers in send order; consecutive successes land in one transaction. */
  async function handleAnswers(entries: readonly OutboxEntry[], answers: unknown[], result: PushResult): Promise<BatchOutcome> {
    const acks: Ack[] = [];
    const ackPending = async () => {
      result.acked += await acknowledgeAll(ctx, acks.splice(0));
    };
    for (const [i, entry] of entries.entries()) {
      const answer = answers[i] as { status?: unknown; body?: unknown } | undefined;
      const status = answer && typeof answer.status === 'number' ? answer.status : null;
      const answerClass = status === null ? null : classifyMutationAnswer(entry.method, status);
      if (answerClass === 'applied') {
        // A DELETE answered 404 is done too (already gone).
        acks.push({ entry, body: status! >= 200 && status! < 300 ? answer!.body : null, status: status! });
        continue;
      }
      await ackPending();
      if (answerClass === null) {
        await putBack(entries, { from: i, notRunFrom: i }); // not run: the batch stopped at a transient answer before it
        return 'done';
      }
      if (answerClass === 'auth') {
        await putBack(entries, { from: i, notRunFrom: i + 1 });
        ctx.pauseForAuth();
        result.paused = true;
        return 'stop';
      } else if (answerClass === 'transient') {
        const at = now() + backoffMs(entry.attempts, random);
        await putBack(entries, { from: i, notRunFrom: i + 1, retryAt: at });
        result.retryAt = at;
        return 'stop';
      } else if ((await rejectEntry(ctx, entry, status!, asApiError(answer!.body, status!))).length > 0) {
        result.rejected += 1;
      }
    }
    await ackPending();
    return 'done';
  }

  async function send(clientId: string, result: PushResult): Promise<BatchOutcome> {
    const entries = await takeDue();
    if (entries.length < 2) return 'fallback';
    let response: Response;
    try {
      response = await ctx.transport.request('POST', '/api/sync/batch', { 'X-Client-Id': clientId }, requestBody(entries));
    } catch {
      if (flags.stopped) return 'stop';
      ctx.noteNetworkTrouble(OFFLINE_PUSH_MESSAGE);
      const at = now() + backoffMs(entries[0]!.attempts, random);
      await putBack(entries, { from: 0, notRunFrom: entries.length, retryAt: at });
      result.retryAt = at;
      return 'stop';
    }
    if (flags.stopped) return 'stop';
    if (response.status === 404 || response.status === 405) {
      available = false;
      await putBack(entries, { from: 0, notRunFrom: 0 });
      return 'fallback';
    }
    const answers = await readJson(response).catch(() => null);
    if (flags.stopped) return 'stop';
    if (response.status === 401) {
      await putBack(entries, { from: 0, notRunFrom: 0 });
      ctx.pauseForAuth();
      result.paused = true;
      return 'stop';
    }
    if (!response.ok || !Array.isArray(answers)) {
      // The batch as a whole failed (busy server, a proxy's error page): back off, as for one entry.
      const at = now() + retryDelayMs(entries[0]!.attempts, random, response.headers.get('Retry-After'), now());
      await putBack(entries, { from: 0, notRunFrom: entries.length, retryAt: at });
      if (response.status >= 400 && response.status < 500 && classifyStatus(response.status) === 'permanent') available = false;
      result.retryAt = at;
      return 'stop';
    }
    available = true;
    ctx.clearTransientError();
    return handleAnswers(entries, answers, result);
  }

  return {
    get available() {
      return available;
    },
    send,
  };
}
