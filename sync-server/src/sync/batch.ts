/**
 * POST /api/sync/batch — sends a backlog of outbox entries in one request and one database
 * transaction (DESIGN.md §3 "Sending", §6). Each entry runs through its own REST route (the same
 * handler code, hooks and validation, via inject), so there is one code path per mutation; the
 * shared transaction scope turns each entry's runMutation transaction into a savepoint, so a
 * rejected entry rolls back alone and the batch commits once. (The batch is its own group: its
 * entries' route hooks query the database handle, not a transaction, which only the shared scope
 * can route into one transaction.)
 *
 * Answers `BatchResult[]` in order. A 4xx entry does not stop the batch (it can never succeed; its
 * answer is recorded like any other). A transient answer (5xx, 408, 429) stops it there: later
 * entries are not run and not answered, and the client resends them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type BatchEntry, ERROR_CODES, batchBodySchema, isTransientStatus } from '@chronicler/schema';
import { requireUser } from '../auth/session.ts';
import { runInSharedTransaction } from '../db/shared-transaction.ts';
import { IDEMPOTENCY_HEADER } from './mutation.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';

/** Routes an entry may not reach: sessions, sync itself (no nested batches). */
const NOT_BATCHABLE = [/^\/api\/sync\//, /^\/api\/(auth\/)?(login|logout|register)\b/, /^\/api\/user\b/];

function forwardedHeaders(request: FastifyRequest, entry: BatchEntry): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['cookie', 'x-client-id', 'user-agent', 'authorization']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (entry.body !== undefined) headers['content-type'] = 'application/json';
  const h = entry.headers ?? {};
  if (h.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = h.idempotencyKey;
  if (h.baseRev !== undefined && h.baseRev !== null) headers['x-base-rev'] = String(h.baseRev);
  if (h.mutationId !== undefined) headers['x-mutation-id'] = h.mutationId;
  return headers;
}

export function registerBatchRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/sync/batch', { schema: { body: batchBodySchema } }, async (request, reply) => {
    requireUser(request);
    // Each answer is kept as the JSON text its route produced: no parse and re-serialise.
    const answers: string[] = [];
    await runInSharedTransaction(async () => {
      for (const entry of request.body.entries) {
        if (NOT_BATCHABLE.some((re) => re.test(entry.path))) {
          const body = { message: 'This call cannot be sent in a batch', code: ERROR_CODES.badRequest };
          answers.push(JSON.stringify({ status: 400, body }));
          continue;
        }
        const res = await app.inject({
          method: entry.method,
          url: entry.path,
          headers: forwardedHeaders(request, entry),
          ...(entry.body !== undefined ? { payload: JSON.stringify(entry.body) } : {}),
        });
        const isJson = /^application\/json/.test(String(res.headers['content-type'] ?? ''));
        const body = res.body === '' ? 'null' : isJson ? res.body : JSON.stringify(res.body);
        answers.push(`{"status":${res.statusCode},"body":${body}}`);
        if (isTransientStatus(res.statusCode)) break;
      }
    });
    return reply.type(JSON_CONTENT_TYPE).send(`[${answers.join(',')}]`);
  });
}
