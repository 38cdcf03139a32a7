/**
 * The one write path (DESIGN.md §3 "Server"): every mutating request runs here, in ONE
 * transaction that takes the next global seq, applies the effect, and records the
 * Idempotency-Key answer — so a replay returns the stored answer and never applies twice.
 *
 * 4xx answers are recorded too (after rolling the effect back): they can never succeed, and a
 * replay must get the same answer. 5xx are not recorded: the client retries them.
 *
 * Concurrent writes are committed together (db/group-commit.ts): one fsync for many requests,
 * each answered only once its write is durable.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, type Transaction, sql } from 'kysely';
import { ERROR_CODES, GENERIC_MESSAGES } from '@chronicler/schema';
import { afterCommit } from '../db/shared-transaction.ts';
import type { DB } from '../db/tables.ts';
import { HttpError } from '../http/errors.ts';

export interface MutationContext {
  trx: Transaction<DB>;
  userId: string;
  /** The global sequence number of this write; every row it touches gets rev = seq. */
  seq: number;
  /** ISO timestamp shared by everything this write stamps. */
  now: string;
  /** Marks a series as touched so SSE listeners in its scope are poked after commit. */
  touch(seriesId: string): void;
}

export interface MutationResult {
  status: number;
  body: unknown;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 200;

/** Stable JSON (sorted keys) so the same body always hashes the same. */
function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

export function requestHash(method: string, url: string, body: unknown): string {
  return crypto.createHash('sha256').update(`${method} ${url}\n${stableStringify(body ?? null)}`).digest('hex');
}

export async function nextSeq(trx: Transaction<DB>): Promise<number> {
  const row = await trx
    .updateTable('syncState')
    .set({ value: sql`value + 1` })
    .where('name', '=', 'seq')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') return null;
  if (key.length > MAX_KEY_LENGTH) {
    throw new HttpError(400, ERROR_CODES.badRequest, `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

type Outcome =
  | { kind: 'done'; result: MutationResult; json: string | null }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'rejected'; error: HttpError };

/**
 * Runs `handler` as one write with idempotency, then pokes listeners. The write joins the next
 * group commit (db/group-commit.ts): its own savepoint in a transaction shared with concurrent
 * writes, answered once that transaction has committed. Sends the reply itself and returns it
 * (route handlers `return runMutation(...)`).
 */
export async function runMutation(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  handler: (ctx: MutationContext) => Promise<MutationResult>,
): Promise<FastifyReply> {
  const { database, hub } = request.server.deps;
  const { db } = database;
  const key = idempotencyKeyOf(request);
  const hash = key ? requestHash(request.method, request.url, request.body) : '';

  const mutate = async (): Promise<Outcome> => {
    const touched = new Set<string>();
    let seq = 0;
    let outcome: Outcome;
    try {
      outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
        if (key) {
          const prior = await trx
            .selectFrom('idempotencyKeys')
            .select(['requestHash', 'statusCode', 'response'])
            .where('userId', '=', userId)
            .where('key', '=', key)
            .executeTakeFirst();
          if (prior) {
            if (prior.requestHash !== hash) {
              throw new HttpError(422, ERROR_CODES.idempotencyKeyReused, GENERIC_MESSAGES.idempotencyKeyReused);
            }
            return { kind: 'replay', status: prior.statusCode, body: prior.response };
          }
        }
        seq = await nextSeq(trx);
        const now = new Date().toISOString();
        const result = await handler({ trx, userId, seq, now, touch: (id) => touched.add(id) });
        let json: string | null = null;
        if (key) {
          json = JSON.stringify(result.body ?? null);
          await trx
            .insertInto('idempotencyKeys')
            .values({ userId, key, requestHash: hash, statusCode: result.status, response: json, createdAt: now })
            .execute();
        }
        return { kind: 'done', result, json };
      });
    } catch (error) {
      // A 4xx can never succeed: its effect is rolled back (above) and the answer recorded in
      // this write instead, so a replay gets it too. Anything else is transient and not recorded.
      if (!(error instanceof HttpError) || error.statusCode < 400 || error.statusCode >= 500) throw error;
      if (key && error.code !== ERROR_CODES.idempotencyKeyReused) await recordRejection(db, userId, key, hash, error);
      return { kind: 'rejected', error };
    }
    // Pokes go out once the write is durable: after its group (or its batch) commits.
    if (outcome.kind === 'done' && touched.size > 0) afterCommit(() => hub.publish({ seq, seriesIds: touched }));
    return outcome;
  };

  const outcome = await database.groupCommit.run(mutate);
  if (outcome.kind === 'rejected') throw outcome.error;
  if (outcome.kind === 'replay') {
    reply.header('idempotent-replayed', 'true');
    return reply.status(outcome.status).type('application/json; charset=utf-8').send(outcome.body);
  }
  const { status, body } = outcome.result;
  // The recorded JSON is the answer's JSON: send it rather than serialise the body again (a saved
  // chapter is ~6 KB per 1,000 words), unless the route serialises through a response schema.
  if (outcome.json !== null && typeof body === 'object' && body !== null && !request.routeOptions.schema?.response) {
    return reply.status(status).type('application/json; charset=utf-8').send(outcome.json);
  }
  return reply.status(status).send(body);
}

async function recordRejection(db: Kysely<DB>, userId: string, key: string, hash: string, error: HttpError): Promise<void> {
  await db
    .insertInto('idempotencyKeys')
    .values({ userId, key, requestHash: hash, statusCode: error.statusCode, response: JSON.stringify(error.toBody()), createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
