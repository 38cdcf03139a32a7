/**
 * The one write path (docs/sync-protocol.md#the-server-transaction): every mutating request runs
 * here, in ONE transaction that takes the next global seq, applies the effect, and records the
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
import type { Transaction } from 'kysely';
import { ERROR_CODES, GENERIC_MESSAGES, describeDevice } from '@chronicler/schema';
import type { WriteTransaction } from '../db/group-commit.ts';
import { execStatement, incrementSeq, insertIdempotencyRecordIfAbsent } from '../db/dialect.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_KEYS } from '../db/prepared-keys.ts';
import { inSavepoint } from '../db/savepoint.ts';
import { afterCommit } from '../db/shared-transaction.ts';
import type { DB } from '../db/tables.ts';
import { type MutationContext, type WriteContext, isLastSnapshot } from '../entities/writes.ts';
import type { OpenedDatabase } from '../db/database.ts';
import type { ChangeHub } from './hub.ts';
import { HttpError } from '../http/errors.ts';
import { JSON_CONTENT_TYPE, type SnapshotReference, jsonOf, snapshotReferenceOf } from '../http/json.ts';

export type { MutationContext, WriteContext };

export interface MutationResult {
  status: number;
  body: unknown;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 200;

/** Stable JSON (sorted keys): how request hashes were made before "v2:" (records kept for a while). */
function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * Feeds a JSON value to the hash in a canonical, unambiguous form (sorted keys, length-prefixed
 * strings) without building its JSON text: a saved chapter's 6 KB of text is hashed as it is
 * rather than escaped and copied first.
 */
function hashValue(hash: crypto.Hash, value: unknown): void {
  if (typeof value === 'string') {
    hash.update(`s${value.length}:`).update(value);
  } else if (value === null || typeof value !== 'object') {
    hash.update(`${typeof value}:${String(value)};`);
  } else if (Array.isArray(value)) {
    hash.update(`[${value.length}:`);
    for (const item of value) hashValue(hash, item ?? null);
  } else {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    hash.update(`{${keys.length}:`);
    for (const key of keys) {
      hashValue(hash, key);
      hashValue(hash, (value as Record<string, unknown>)[key]);
    }
  }
}

const HASH_VERSION = 'v2:';

/** What the Idempotency-Key is bound to: the method, the URL and the body's content (not its bytes). */
export function requestHash(method: string, url: string, body: unknown): string {
  const hash = crypto.createHash('sha256').update(`${method} ${url}\n`);
  hashValue(hash, body ?? null);
  return HASH_VERSION + hash.digest('hex');
}

/** Whether a stored request hash is this request's, whichever version made it. */
function sameRequest(stored: string, current: string, request: FastifyRequest): boolean {
  if (stored.startsWith(HASH_VERSION)) return stored === current;
  const legacy = crypto.createHash('sha256').update(`${request.method} ${request.url}\n${stableStringify(request.body ?? null)}`).digest('hex');
  return stored === legacy;
}

/** Takes the next global seq in the write's transaction. */
export function nextSeq(trx: Transaction<DB>): Promise<number> {
  return incrementSeq(trx);
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
  | { kind: 'done'; result: MutationResult; json: string | null; seq: number; touched: Touched }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'rejected'; error: HttpError };

const EFFECT_SAVEPOINT = 'mutation_effect';

/** What one write touched: the series and the authors (user-scoped rows) whose streams hear of it. */
interface Touched {
  seriesIds: Set<string>;
  userIds: Set<string>;
  /** Authors whose account record changed (a subset of userIds). */
  records: Set<string>;
  /** What the write asked to run once it is durable (WriteContext.onCommit). */
  committed: (() => void)[];
}

/** A write's context over `trx` at `seq`, collecting what it touches. */
function stampedContext(trx: WriteTransaction, seq: number, touched: Touched): Omit<WriteContext, 'userId'> {
  return {
    trx,
    seq,
    now: new Date().toISOString(),
    touch: (id) => touched.seriesIds.add(id),
    touchUser: (id, what = 'rows') => {
      touched.userIds.add(id);
      if (what === 'record') touched.records.add(id);
    },
    onCommit: (effect) => touched.committed.push(effect),
  };
}

/**
 * After a write is durable: its own effects (WriteContext.onCommit), then the hub's notice — whose
 * listeners are the effects other modules registered (auth forgets the cached sessions of authors
 * whose record the write changed: plan, name) — and the pokes of the streams that can see what it
 * touched. Without a hub (the operator command, a process that serves no requests) there is nobody
 * to tell, and no session to forget: only a serving app resolves, and so caches, sessions.
 */
function announce(hub: ChangeHub | null, seq: number, touched: Touched, writerId: string | null): void {
  for (const effect of touched.committed) effect();
  if (hub && (touched.seriesIds.size > 0 || touched.userIds.size > 0)) {
    hub.publish({ seq, seriesIds: touched.seriesIds, userIds: touched.userIds, records: touched.records, writerId });
  }
}

/**
 * A write the server makes on its own behalf, outside any author's request (a payment webhook, a
 * scheduled grant): ONE transaction through the group commit that takes the next seq, like
 * runMutation but with no idempotency record and no author (`ctx.userId` null). Use writes.ts
 * insertRow/updateRow and entities/user-rows.ts markUserChanged inside `work`; after the commit
 * the touched authors' and series' streams are poked. Answers what `work` answered.
 */
export async function runServerWrite<T>(
  deps: { database: OpenedDatabase; hub: ChangeHub | null },
  work: (ctx: WriteContext) => Promise<T>,
): Promise<T> {
  const { database, hub } = deps;
  const { value, seq, touched } = await database.groupCommit.run(async (trx) => {
    const seq = await nextSeq(trx);
    const touched: Touched = { seriesIds: new Set(), userIds: new Set(), records: new Set(), committed: [] };
    const value = await work({ ...stampedContext(trx, seq, touched), userId: null });
    return { value, seq, touched };
  });
  afterCommit(() => announce(hub, seq, touched, null));
  return value;
}

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
      const prior = await findRecord(trx, userId, key);
      if (prior) {
        if (!sameRequest(prior.requestHash, hash, request)) {
          throw new HttpError(422, ERROR_CODES.idempotencyKeyReused, GENERIC_MESSAGES.idempotencyKeyReused);
        }
        return { kind: 'replay', status: prior.statusCode, body: recordedAnswer(prior) };
      }
    }
    const seq = await nextSeq(trx);
    const touched: Touched = { seriesIds: new Set(), userIds: new Set(), records: new Set(), committed: [] };
    const ctx: MutationContext = { ...stampedContext(trx, seq, touched), userId, device: describeDevice(request.headers['user-agent'] ?? null) };
    const result = await handler(ctx);
    let json: string | null = null;
    if (key) {
      json = jsonOf(result.body);
      await recordAnswer(trx, { userId, key, requestHash: hash, statusCode: result.status, createdAt: ctx.now }, json, snapshotReferenceOf(result.body));
    }
    return { kind: 'done', result, json, seq, touched };
  };

  // A thrown error rolls the write back (its group-commit savepoint) and reaches the caller after
  // the group commits. With a key, a 4xx — which can never succeed — rolls back only the effect
  // and is recorded in its place, so a replay gets the same answer; anything else is transient
  // and not recorded.
  const mutate = async (trx: WriteTransaction): Promise<Outcome> => {
    if (!key) return apply(trx);
    try {
      return await inSavepoint((text) => execStatement(trx, text), EFFECT_SAVEPOINT, () => apply(trx));
    } catch (error) {
      if (!isRejection(error)) throw error;
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
  afterCommit(() => announce(hub, seq, touched, userId));
  const { status, body } = outcome.result;
  // The recorded JSON is the answer's JSON, and a saved row's JSON was made for its revision
  // snapshot: send that rather than serialise ~6 KB of chapter again, unless the route serialises
  // through a response schema.
  if (typeof body === 'object' && body !== null && !request.routeOptions.schema?.response) {
    return reply.status(status).type(JSON_CONTENT_TYPE).send(outcome.json ?? jsonOf(body));
  }
  return reply.status(status).send(body);
}

// ---------------------------------------------------------------------------------------------
// Idempotency records

export interface StoredRecord {
  requestHash: string;
  statusCode: number;
  response: string;
  snapshotRev: number | null;
  /** The referenced revision's snapshot (null without a reference, or if it were gone). */
  snapshot: string | null;
}

/** The record of `key`, with the revision snapshot its answer refers to. */
async function findRecord(trx: WriteTransaction, userId: string, key: string): Promise<StoredRecord | undefined> {
  const [record] = await runPrepared(
    trx,
    PREPARED_KEYS.idempotencyKey,
    (q, v: { userId: string; key: string }) =>
      q
        .selectFrom('idempotencyKeys as k')
        .leftJoin('revisions as r', (join) =>
          join.onRef('r.entity', '=', 'k.snapshotEntity').onRef('r.entityId', '=', 'k.snapshotEntityId').onRef('r.rev', '=', 'k.snapshotRev'),
        )
        .select(['k.requestHash', 'k.statusCode', 'k.response', 'k.snapshotRev', 'r.snapshot'])
        .where('k.userId', '=', v.userId)
        .where('k.key', '=', v.key),
    { userId, key },
  );
  return record as StoredRecord | undefined;
}

/** The recorded answer's JSON: the whole `response`, or the referenced snapshot's text continued by it. */
export function recordedAnswer(record: Pick<StoredRecord, 'response' | 'snapshotRev' | 'snapshot'>): string {
  if (record.snapshotRev === null) return record.response;
  if (record.snapshot === null) throw new Error('An idempotency record refers to a revision snapshot that is gone');
  return record.snapshot.slice(0, -1) + record.response;
}

type RecordFields = { userId: string; key: string; requestHash: string; statusCode: number; createdAt: string };

/**
 * Records the answer `json` under the key. When it is made from a revision snapshot this write
 * stored (`reference`: a saved row's JSON, maybe with keys appended — http/json.ts), the record
 * keeps only the tail and refers to that snapshot instead of holding ~6 KB of chapter a third
 * time — only while that snapshot is still the row's stored one (a row written twice in one
 * request keeps its last snapshot: then the whole answer is kept). The write knows which snapshot
 * it stored last (entities/writes.ts), so the database need not compare the text again, and
 * neither does this (comparing the answer with the snapshot cost ~18 µs per chapter save).
 */
async function recordAnswer(trx: WriteTransaction, fields: RecordFields, json: string, reference: SnapshotReference | undefined): Promise<void> {
  if (reference && isLastSnapshot(trx, reference.source)) {
    const { source, tail } = reference;
    const record = { ...fields, response: tail, snapshotEntity: source.entity, snapshotEntityId: source.entityId, snapshotRev: source.rev };
    await runPrepared(trx, PREPARED_KEYS.recordIdempotencyReference, (q, v: typeof record) => q.insertInto('idempotencyKeys').values({ ...v }), record);
    return;
  }
  const record = { ...fields, response: json };
  await runPrepared(trx, PREPARED_KEYS.recordIdempotencyKey, (q, v: typeof record) => q.insertInto('idempotencyKeys').values({ ...v }), record);
}

function isRejection(error: unknown): error is HttpError {
  return error instanceof HttpError && error.statusCode >= 400 && error.statusCode < 500;
}

async function recordRejection(trx: WriteTransaction, userId: string, key: string, hash: string, error: HttpError): Promise<void> {
  const response = JSON.stringify(error.toBody());
  await insertIdempotencyRecordIfAbsent(trx, { userId, key, requestHash: hash, statusCode: error.statusCode, response, createdAt: new Date().toISOString() });
}
