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
import { type Transaction, sql } from 'kysely';
import { ERROR_CODES, GENERIC_MESSAGES } from '@chronicler/schema';
import type { WriteTransaction } from '../db/group-commit.ts';
import { afterCommit } from '../db/shared-transaction.ts';
import { runPrepared } from '../db/prepared.ts';
import type { DB } from '../db/tables.ts';
import { HttpError } from '../http/errors.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';

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
  const [row] = await runPrepared(
    trx,
    'nextSeq',
    (q) => q.updateTable('syncState').set({ value: sql`value + 1` }).where('name', '=', 'seq').returning('value'),
    {},
  );
  if (!row) throw new Error('sync_state has no seq row');
  return Number((row as { value: number }).value);
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
  | { kind: 'done'; result: MutationResult; json: string | null; seq: number; touched: ReadonlySet<string> }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'rejected'; error: HttpError };

const EFFECT_SAVEPOINT = 'mutation_effect';

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
  const key = idempotencyKeyOf(request);
  const hash = key ? requestHash(request.method, request.url, request.body) : '';

  const apply = async (trx: WriteTransaction): Promise<Outcome> => {
    if (key) {
      const [prior] = (await runPrepared(
        trx,
        'idempotencyKey',
        (q, v: { userId: string; key: string }) =>
          q.selectFrom('idempotencyKeys').select(['requestHash', 'statusCode', 'response']).where('userId', '=', v.userId).where('key', '=', v.key),
        { userId, key },
      )) as { requestHash: string; statusCode: number; response: string }[];
      if (prior) {
        if (prior.requestHash !== hash) {
          throw new HttpError(422, ERROR_CODES.idempotencyKeyReused, GENERIC_MESSAGES.idempotencyKeyReused);
        }
        return { kind: 'replay', status: prior.statusCode, body: prior.response };
      }
    }
    const seq = await nextSeq(trx);
    const now = new Date().toISOString();
    const touched = new Set<string>();
    const result = await handler({ trx, userId, seq, now, touch: (id) => touched.add(id) });
    let json: string | null = null;
    if (key) {
      json = JSON.stringify(result.body ?? null);
      const record = { userId, key, requestHash: hash, statusCode: result.status, response: json, createdAt: now };
      await runPrepared(trx, 'recordIdempotencyKey', (q, v: typeof record) => q.insertInto('idempotencyKeys').values({ ...v }), record);
    }
    return { kind: 'done', result, json, seq, touched };
  };

  // A thrown error rolls the write back (its group-commit savepoint) and reaches the caller after
  // the group commits. With a key, a 4xx — which can never succeed — rolls back only the effect
  // and is recorded in its place, so a replay gets the same answer; anything else is transient
  // and not recorded.
  const mutate = async (trx: WriteTransaction): Promise<Outcome> => {
    if (!key) return apply(trx);
    const effect = await trx.savepoint(EFFECT_SAVEPOINT).execute();
    try {
      const outcome = await apply(trx);
      await effect.releaseSavepoint(EFFECT_SAVEPOINT).execute();
      return outcome;
    } catch (error) {
      if (!isRejection(error)) throw error;
      await effect.rollbackToSavepoint(EFFECT_SAVEPOINT).execute();
      await effect.releaseSavepoint(EFFECT_SAVEPOINT).execute();
      if (error.code !== ERROR_CODES.idempotencyKeyReused) await recordRejection(trx, userId, key, hash, error);
      return { kind: 'rejected', error };
    }
  };

  const outcome = await database.groupCommit.run(mutate);
  if (outcome.kind === 'rejected') throw outcome.error;
  if (outcome.kind === 'replay') {
    reply.header('idempotent-replayed', 'true');
    return reply.status(outcome.status).type(JSON_CONTENT_TYPE).send(outcome.body);
  }
  // Committed. Inside a batch the write is durable only when the batch commits: poke then.
  const { seq, touched } = outcome;
  if (touched.size > 0) afterCommit(() => hub.publish({ seq, seriesIds: touched }));
  const { status, body } = outcome.result;
  // The recorded JSON is the answer's JSON: send it rather than serialise the body again (a saved
  // chapter is ~6 KB per 1,000 words), unless the route serialises through a response schema.
  if (outcome.json !== null && typeof body === 'object' && body !== null && !request.routeOptions.schema?.response) {
    return reply.status(status).type(JSON_CONTENT_TYPE).send(outcome.json);
  }
  return reply.status(status).send(body);
}

function isRejection(error: unknown): error is HttpError {
  return error instanceof HttpError && error.statusCode >= 400 && error.statusCode < 500;
}

async function recordRejection(trx: WriteTransaction, userId: string, key: string, hash: string, error: HttpError): Promise<void> {
  await trx
    .insertInto('idempotencyKeys')
    .values({ userId, key, requestHash: hash, statusCode: error.statusCode, response: JSON.stringify(error.toBody()), createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
