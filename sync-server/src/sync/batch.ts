/**
 * POST /api/sync/batch — sends a backlog of outbox entries in one request and one database
 * transaction (docs/sync-protocol.md#sending, docs/measurements.md#before-the-code). Each entry
 * runs through its own REST route (the same handler code, hooks and validation, via inject), so
 * there is one code path per mutation; the shared transaction scope turns each entry's runMutation
 * transaction into a savepoint, so a rejected entry rolls back alone and the batch commits once.
 * (The batch is its own group: its entries' route hooks query the database handle, not a
 * transaction, which only the shared scope can route into one transaction.)
 *
 * Answers `BatchResult[]` in order. A 4xx entry does not stop the batch (it can never succeed; its
 * answer is recorded like any other). A transient answer (5xx, 408, 429) stops it there: later
 * entries are not run and not answered, and the client resends them.
 *
 * Which routes an entry may reach is decided on the route the router matched (after it decoded
 * and normalised the path: `/api/%6cogin` and `/api/x/../login` are the login route), by an
 * allow-list: only routes registered with `config.batchable` (the story writes). Sessions,
 * accounts and the batch itself (no nesting) answer 400 before any hook or handler of theirs runs.
 *
 * Fairness: the entries run in slices of one transaction each, a slice ending after
 * BATCH_SLICE_MS, and the next starting after the event loop had a turn, so another author's
 * request waits at most about one slice. Each entry commits with its idempotency record, so the
 * split keeps exactly-once. A batch stops after BATCH_BUDGET_MS; the entries it did not run are
 * not answered, and the client sends them again (as after a transient answer).
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type BatchEntry, ERROR_CODES, batchBodySchema, isTransientStatus } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { runInSharedTransaction } from '../db/shared-transaction.ts';
import { IDEMPOTENCY_HEADER } from './mutation.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route may run as an entry of POST /api/sync/batch (an outbox write). */
    batchable?: boolean;
  }
}

/** A slice of a batch holds the database at most about this long before others get a turn. */
export const BATCH_SLICE_MS = 50;
/** A batch runs entries for at most this long; the rest are left unanswered for the client to resend. */
export const BATCH_BUDGET_MS = 5_000;

/**
 * Marks the requests a batch makes (random per process: a caller cannot forge it), so the guard
 * below knows an entry from a direct call.
 */
const BATCH_ENTRY_HEADER = 'x-chronicler-batch-entry';
const BATCH_ENTRY_MARK = crypto.randomBytes(32).toString('base64url');

const notBatchable = { message: 'This call cannot be sent in a batch', code: ERROR_CODES.badRequest };

/**
 * Root onRequest hook (installed before every other, in app.ts): a batch entry whose matched route
 * is not on the allow-list answers 400 at once. Unknown paths fall through to the 404.
 */
export function refuseUnbatchableEntries(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.headers[BATCH_ENTRY_HEADER] !== BATCH_ENTRY_MARK) return done();
  const matched = request.routeOptions.url !== undefined;
  if (matched && request.routeOptions.config.batchable !== true) {
    void reply.status(400).send(notBatchable);
    return;
  }
  done();
}

function forwardedHeaders(request: FastifyRequest, entry: BatchEntry): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['cookie', 'x-client-id', 'user-agent', 'authorization']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (entry.body !== undefined) headers['content-type'] = 'application/json';
  headers[BATCH_ENTRY_HEADER] = BATCH_ENTRY_MARK;
  const h = entry.headers ?? {};
  if (h.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = h.idempotencyKey;
  if (h.baseRev !== undefined && h.baseRev !== null) headers['x-base-rev'] = String(h.baseRev);
  if (h.mutationId !== undefined) headers['x-mutation-id'] = h.mutationId;
  return headers;
}

export function registerBatchRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/sync/batch', { schema: { body: batchBodySchema }, bodyLimit: app.deps.config.batchBodyLimitBytes }, async (request, reply) => {
    requireUser(request);
    const entries = request.body.entries;
    // Each answer is kept as the JSON text its route produced: no parse and re-serialise.
    const answers: string[] = [];
    const started = performance.now();
    let next = 0;
    let stopped = false;
    const runEntry = async (entry: (typeof entries)[number]) => {
      const res = await app.inject({
        method: entry.method,
        url: entry.path,
        headers: forwardedHeaders(request, entry),
        remoteAddress: request.ip,
        ...(entry.body !== undefined ? { payload: JSON.stringify(entry.body) } : {}),
      });
      const isJson = /^application\/json/.test(String(res.headers['content-type'] ?? ''));
      const body = res.body === '' ? 'null' : isJson ? res.body : JSON.stringify(res.body);
      answers.push(`{"status":${res.statusCode},"body":${body}}`);
      if (isTransientStatus(res.statusCode)) stopped = true;
    };
    while (next < entries.length && !stopped) {
      if (next > 0) {
        if (performance.now() - started >= BATCH_BUDGET_MS) break;
        await nextTurn(); // requests queued behind this slice run now
      }
      await runInSharedTransaction(async () => {
        const sliceStarted = performance.now();
        do await runEntry(entries[next++]!);
        while (next < entries.length && !stopped && performance.now() - sliceStarted < BATCH_SLICE_MS);
      });
    }
    return reply.type(JSON_CONTENT_TYPE).send(`[${answers.join(',')}]`);
  });
}
