/**
 * The sync engine (DESIGN.md §3): one leader tab per user (Web Locks) pushes the outbox in order
 * through the spec's REST calls and pulls the changes feed into Dexie.
 *
 * Status contract of a push:
 * - 2xx: applied (also merged or kept as a conflict copy — not an error). The answer row becomes the
 *   server state of the row and later pending work is replayed on top (rebase).
 * - 401: pause and ask for sign-in (`onAuthRequired`); nothing is dropped.
 * - 408 / 429 / 5xx / network error: transient; retried with capped exponential backoff and jitter,
 *   honouring Retry-After. Entries stay in order: a waiting head holds the ones behind it.
 * - other 4xx: can never succeed. The entry moves to dead letters with the author's text, its
 *   optimistic change is reverted, and so are its dependants (later entries naming a rejected create).
 *
 * Pull: GET /api/sync/changes?since=<cursor> page by page, each page (and the cursor) in ONE Dexie
 * transaction with bulk writes (DESIGN.md §6). Triggers: SSE pokes, SSE (re)connects, `online`,
 * focus / visibility, every minute, and after each push that acknowledged something.
 */
import { liveQuery } from 'dexie';
import type { ApiErrorBody, ChangesResponse, EntityKind } from '@chronicler/schema';
import {
  type AnyRow,
  type ChroniclerDb,
  type DeadLetter,
  ENTITY_KINDS,
  type OutboxEntry,
  type RecoverableContent,
  SERIES_CHILD_KINDS,
  SYNC_TABLES,
  entityTable,
  readSyncState,
  splitEntityKey as splitKey,
} from './db.ts';
import { type Ack, applyAcks } from './acks.ts';
import { referencedIds } from './mutators.ts';
import { applyServerRow, cleanRow, recompute } from './rebase.ts';
import { reportStorageError } from './storage.ts';
import { type SyncStatusStore, syncStatus } from './status.ts';

// ---------------------------------------------------------------------------------------------
// Injected platform pieces

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data?: string }) => void): void;
  close(): void;
  onerror: ((event: unknown) => void) | null;
  readonly readyState: number;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface LocksLike {
  request(name: string, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
}

export interface TimersLike {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Where `online`, `offline`, `focus` and `visibilitychange` come from. */
export interface PlatformEvents {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface SyncEngineOptions {
  db: ChroniclerDb;
  fetch: FetchLike;
  /** '' for the same origin. */
  baseUrl: string;
  /** The server answered 401: show sign-in. Syncing stays paused until `resume()`. */
  onAuthRequired?: () => void;
  now?: () => number;
  random?: () => number;
  /** Web Locks; `null` (or absent in the browser) → this instance is the leader. */
  locks?: LocksLike | null;
  /** SSE; `null` disables the live channel. Default: the browser's EventSource with credentials. */
  eventSource?: EventSourceFactory | null;
  status?: SyncStatusStore;
  timers?: TimersLike;
  /** Window-like and document-like event targets; default globalThis / document. */
  platform?: { window?: PlatformEvents | null; document?: (PlatformEvents & { visibilityState?: string }) | null };
  pullIntervalMs?: number;
  pageLimit?: number;
  /** Backlogs at least this long go through POST /api/sync/batch when the server has it. */
  batchThreshold?: number;
  batchSize?: number;
  /** Per-request timeout; a hung request is a transient failure. */
  requestTimeoutMs?: number;
}

export type SyncEvent =
  | { type: 'problem'; deadLetter: DeadLetter; message: string }
  | { type: 'conflict'; chapterId: string; conflictId: string }
  | { type: 'acked'; idemKey: string; status: number; kind: OutboxEntry['kind']; entity: EntityKind; entityId: string; mergeStatus?: string }
  | { type: 'auth-required' }
  | { type: 'pulled'; cursor: number; rows: number };

export interface PushResult {
  acked: number;
  rejected: number;
  /** Stopped on a transient failure (or a waiting head): retry at this time. */
  retryAt: number | null;
  paused: boolean;
}

export interface SyncEngine {
  /** Takes part in leader election and, as leader, syncs live. */
  start(): void;
  /** Stops syncing and releases leadership (sign-out, tests, a simulated crash). */
  stop(): void;
  /** Push until the outbox is empty or blocked, then pull; resolves when idle. */
  sync(): Promise<void>;
  push(): Promise<PushResult>;
  pull(): Promise<void>;
  /** After a new sign-in: clears the pause and syncs. */
  resume(): void;
  on(listener: (event: SyncEvent) => void): () => void;
  readonly isLeader: boolean;
  readonly paused: boolean;
}

// ---------------------------------------------------------------------------------------------
// Backoff

export const BACKOFF_MIN_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
/** A Retry-After further away than this is capped (a misconfigured proxy must not park the outbox for days). */
export const RETRY_AFTER_MAX_MS = 60 * 60_000;

/** Exponential backoff with jitter: attempt 1 → 0.5–1 s, doubling, capped at 60 s. */
export function backoffMs(attempts: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as milliseconds from now (seconds or an HTTP date); null when absent or invalid. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(RETRY_AFTER_MAX_MS, Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, date - now));
}

/** The most acknowledgements applied in one Dexie transaction. */
export const ACK_GROUP_MAX = 200;

function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

// ---------------------------------------------------------------------------------------------
// Helpers

const DEFAULT_TIMERS: TimersLike = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
};

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function asApiError(body: unknown, status: number): ApiErrorBody {
  const b = body as Partial<ApiErrorBody> | null;
  if (b && typeof b.message === 'string') return b as ApiErrorBody;
  return { message: `The server refused this change (HTTP ${status})`, code: 'BAD_REQUEST' };
}

/** The rows an answer carries (acks.ts). */
export { rowsOfAnswer } from './acks.ts';

const LABEL_FIELDS = ['title', 'name'] as const;

function labelOf(row: Record<string, unknown> | null | undefined, body: Record<string, unknown> | null | undefined): string {
  for (const source of [body, row]) {
    for (const f of LABEL_FIELDS) if (source && typeof source[f] === 'string' && source[f]) return source[f] as string;
  }
  return '';
}

/** The author's words of an entry: its body, plus the full chapter text for chapter work. */
export async function recoverableContent(db: ChroniclerDb, entry: OutboxEntry): Promise<RecoverableContent> {
  const body = (entry.body && typeof entry.body === 'object' ? entry.body : {}) as Record<string, unknown>;
  const local = ((await entityTable(db, entry.entity).get(entry.entityId)) ?? null) as Record<string, unknown> | null;
  const before = entry.before.find((b) => b.entity === entry.entity && b.id === entry.entityId)?.row as Record<string, unknown> | null | undefined;
  const content: RecoverableContent = {
    entity: entry.entity,
    entityId: entry.entityId,
    label: labelOf(local ?? before, body),
    fields: { ...body },
  };
  if (typeof body.content === 'string') content.text = body.content;
  else if (entry.entity === 'chapters' && local && typeof local.content === 'string' && entry.kind === 'update') content.text = local.content;
  return content;
}

// ---------------------------------------------------------------------------------------------

/** The answer to a create or edit is the row deleted: a delete elsewhere came first. */
function removedByDeleteElsewhere({ entry, body }: Ack): boolean {
  if (entry.kind !== 'create' && entry.kind !== 'update') return false;
  const row = body as { id?: unknown; deletedAt?: unknown } | null;
  return !!row && row.id === entry.entityId && typeof row.deletedAt === 'string' && row.deletedAt !== '';
}

/** What a create's row hangs from, in words. */
const PARENT_OF: Partial<Record<EntityKind, string>> = { chapters: 'its book', characterRelationships: 'one of its characters' };

/** Why the words of a change the server answered with a deleted row are in the problems panel. */
export function removedByDeleteMessage(entity: EntityKind, kind: 'create' | 'update'): string {
  const gone = kind === 'create' ? `${PARENT_OF[entity] ?? 'its series'} had` : 'it had';
  return `Saved, but ${gone} been deleted on another device, so it is no longer in your lists. Copy the text to keep it.`;
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { db } = options;
  const now = options.now ?? (() => Date.now());
  const random = options.random ?? Math.random;
  const status = options.status ?? syncStatus;
  const timers = options.timers ?? DEFAULT_TIMERS;
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const pageLimit = options.pageLimit ?? 2_000;
  const batchThreshold = options.batchThreshold ?? 50;
  const batchSize = options.batchSize ?? 200;
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const pullIntervalMs = options.pullIntervalMs ?? 60_000;
  const locks = options.locks !== undefined ? options.locks : ((globalThis.navigator as { locks?: LocksLike } | undefined)?.locks ?? null);
  const eventSourceFactory: EventSourceFactory | null =
    options.eventSource !== undefined
      ? options.eventSource
      : typeof globalThis.EventSource === 'function'
        ? (url) => new EventSource(url, { withCredentials: true }) as unknown as EventSourceLike
        : null;
  const win = options.platform?.window !== undefined ? options.platform.window : (globalThis as unknown as PlatformEvents);
  const doc =
    options.platform?.document !== undefined
      ? options.platform.document
      : typeof document !== 'undefined'
        ? (document as unknown as PlatformEvents & { visibilityState?: string })
        : null;

  const listeners = new Set<(event: SyncEvent) => void>();
  const emit = (event: SyncEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch {
        // a listener's failure is not the engine's
      }
    }
  };

  let leader = false;
  let stopped = true;
  let paused = false;
  let running: Promise<void> | null = null;
  let wantPush = false;
  let wantPull = false;
  let pushTimer: unknown = null;
  let pullTimer: unknown = null;
  let pullAttempts = 0;
  let interval: unknown = null;
  let eventSource: EventSourceLike | null = null;
  let sseRetry: unknown = null;
  let releaseLock: (() => void) | null = null;
  let outboxSubscription: { unsubscribe(): void } | null = null;
  /** null: unknown; false after a 404/405 (the server has no batch endpoint). */
  let batchAvailable: boolean | null = null;
  const inFlight = new Set<AbortController>();
  const cleanup: (() => void)[] = [];

  function url(path: string): string {
    return `${baseUrl}${path}`;
  }

  async function request(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
    const controller = new AbortController();
    inFlight.add(controller);
    const timer = timers.setTimeout(() => controller.abort(), requestTimeoutMs);
    try {
      const init: RequestInit = { method, headers: { ...headers }, credentials: 'include', signal: controller.signal };
      if (body !== undefined) {
        (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      return await options.fetch(url(path), init);
    } finally {
      timers.clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  function pauseForAuth() {
    if (paused) return;
    paused = true;
    status.getState().setAuthRequired(true);
    status.getState().reportError({ kind: 'auth', message: 'Please sign in again to sync your changes. They are kept on this device.', at: now() });
    emit({ type: 'auth-required' });
    try {
      options.onAuthRequired?.();
    } catch {
      // the app's handler must not break the engine
    }
  }

  function noteNetworkTrouble(message: string) {
    status.getState().reportError({ kind: 'network', message, at: now() });
  }

  function clearTransientError() {
    const last = status.getState().lastError;
    if (last && (last.kind === 'network' || last.kind === 'server')) status.getState().clearError();
  }

  function schedulePush(at: number) {
    if (stopped) return;
    if (pushTimer !== null) timers.clearTimeout(pushTimer);
    pushTimer = timers.setTimeout(() => {
      pushTimer = null;
      void kick(true, false);
    }, Math.max(0, at - now()));
  }

  function schedulePull(at: number) {
    if (stopped) return;
    if (pullTimer !== null) timers.clearTimeout(pullTimer);
    pullTimer = timers.setTimeout(() => {
      pullTimer = null;
      void kick(false, true);
    }, Math.max(0, at - now()));
  }

  // -------------------------------------------------------------------------------------------
  // Push

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

  /**
   * Applies consecutive success answers in ONE Dexie transaction (acks.ts), then tells the
   * listeners. Answers how many were applied (an entry may have left the outbox meanwhile:
   * dead-lettered as a dependant, purged with its series).
   */
  async function acknowledgeAll(acks: readonly Ack[]): Promise<number> {
    let count = 0;
    for (let from = 0; from < acks.length; from += ACK_GROUP_MAX) {
      const group = acks.slice(from, from + ACK_GROUP_MAX);
      const applied = await applyAcks(db, group, new Date(now()).toISOString());
      for (const [i, ack] of group.entries()) if (applied[i] && removedByDeleteElsewhere(ack)) await keepRemovedWords(ack);
      group.forEach(({ entry, body, status: httpStatus }, i) => {
        if (!applied[i]) return;
        count += 1;
        const answer = body as { conflictId?: unknown; id?: unknown; mergeStatus?: unknown } | null;
        emit({
          type: 'acked',
          idemKey: entry.idemKey,
          status: httpStatus,
          kind: entry.kind,
          entity: entry.entity,
          entityId: entry.entityId,
          ...(typeof answer?.mergeStatus === 'string' ? { mergeStatus: answer.mergeStatus } : {}),
        });
        if (answer && typeof answer.conflictId === 'string' && typeof answer.id === 'string') {
          emit({ type: 'conflict', chapterId: answer.id, conflictId: answer.conflictId });
        }
      });
    }
    return count;
  }

  /**
   * A create or an edit the server saved onto a row that a delete on another device had already
   * removed (a chapter written offline in a book deleted elsewhere; story/dangling.ts on the
   * server) comes back deleted, and leaves this device's lists with the row. Its words stay in the
   * problems panel, to copy or export, instead of vanishing without a word.
   */
  async function keepRemovedWords({ entry, status: httpStatus }: Ack): Promise<void> {
    const letter: DeadLetter = {
      entry: { ...entry, status: 'pending' },
      status: httpStatus,
      response: { message: removedByDeleteMessage(entry.entity, entry.kind === 'create' ? 'create' : 'update'), code: 'CONFLICT' },
      content: await recoverableContent(db, entry),
      createdAt: now(),
    };
    letter.id = await db.deadLetters.add(letter);
    status.getState().reportError({ kind: 'rejected', message: letter.response!.message, at: now() });
    emit({ type: 'problem', deadLetter: letter, message: letter.response!.message });
  }

  /** Applies one success answer; false when the entry is gone meanwhile. */
  async function acknowledge(entry: OutboxEntry, body: unknown, httpStatus: number): Promise<boolean> {
    return (await acknowledgeAll([{ entry, body, status: httpStatus }])) === 1;
  }

  /**
   * Dead-letters `entry` (and its dependants), reverting their optimistic changes. `causeStatus` 0
   * means the client decided (e.g. the series left the caller's scope).
   */
  async function reject(entry: OutboxEntry, causeStatus: number, response: ApiErrorBody | null): Promise<DeadLetter[]> {
    const letters: DeadLetter[] = [];
    await db.transaction('rw', SYNC_TABLES as unknown as string[], async () => {
      const current = await db.outbox.get(entry.seq!);
      if (!current) return;
      const later = (await db.outbox.where('seq').above(entry.seq!).sortBy('seq'));
      const rejectedIds = new Set<string>(current.kind === 'create' ? [current.entityId.toLowerCase()] : []);
      const dead: { entry: OutboxEntry; causedBy?: string }[] = [{ entry: current }];
      const dropped: OutboxEntry[] = [];
      const rewritten: OutboxEntry[] = [];
      const touched = new Set<string>();
      for (const e of later) {
        if (rejectedIds.size === 0) break;
        const refs = referencedIds(e);
        const hits = [...refs].filter((id) => rejectedIds.has(id));
        if (hits.length === 0) continue;
        if (e.kind === 'delete') {
          dropped.push(e); // deleting what never came to be: nothing to tell the author
        } else if (e.kind === 'reorder' && e.attempts === 0) {
          const listKey = e.entity === 'chapters' ? 'chapters' : 'events';
          const items = ((e.body as Record<string, { id: string; position: number }[]>)[listKey] ?? []).filter(
            (item) => !rejectedIds.has(item.id.toLowerCase()),
          );
          if (items.length === 0) dropped.push(e);
          else {
            e.body = { [listKey]: items };
            e.effects = e.effects.filter((f) => !rejectedIds.has(f.id.toLowerCase()));
            for (const key of e.touches) touched.add(key);
            e.touches = e.touches.filter((key) => !rejectedIds.has(splitKey(key)[1].toLowerCase()));
            rewritten.push(e);
          }
        } else {
          dead.push({ entry: e, causedBy: current.idemKey });
          if (e.kind === 'create') rejectedIds.add(e.entityId.toLowerCase());
        }
      }
      // Words first, while the optimistic rows still hold them.
      for (const d of dead) {
        const letter: DeadLetter = {
          entry: { ...d.entry, status: 'pending' },
          status: d.causedBy ? 0 : causeStatus,
          response: d.causedBy
            ? { message: `Not saved because an earlier change it depends on was refused: ${response?.message ?? 'rejected'}`, code: response?.code ?? 'BAD_REQUEST' }
            : response,
          content: await recoverableContent(db, d.entry),
          createdAt: now(),
        };
        if (d.causedBy) letter.causedBy = d.causedBy;
        letter.id = await db.deadLetters.add(letter);
        letters.push(letter);
      }
      for (const e of [...dead.map((d) => d.entry), ...dropped]) {
        await db.outbox.delete(e.seq!);
        for (const key of e.touches) touched.add(key);
      }
      for (const e of rewritten) {
        await db.outbox.put(e);
        for (const key of e.touches) touched.add(key);
      }
      for (const key of touched) {
        const [entity, id] = splitKey(key);
        await recompute(db, entity, id);
        // A chained entry whose predecessor will never be answered builds on the server state.
        const next = (await db.outbox.where('touches').equals(key).sortBy('seq'))[0];
        if (next?.chained && next.entity === entity && next.entityId === id) {
          const shadow = await db.shadows.get([entity, id]);
          await db.outbox.update(next.seq!, { baseRev: shadow?.rev ?? null, chained: false });
        }
      }
    });
    for (const letter of letters) {
      const message = letter.response?.message ?? 'A change was refused by the server';
      status.getState().reportError({ kind: 'rejected', message, at: now() });
      emit({ type: 'problem', deadLetter: letter, message });
    }
    return letters;
  }

  async function sendOne(entry: OutboxEntry, clientId: string): Promise<'acked' | 'rejected' | { transientUntil: number } | 'auth' | 'stopped'> {
    const headers: Record<string, string> = {
      'Idempotency-Key': entry.idemKey,
      'X-Client-Id': clientId,
      'X-Mutation-Id': String(entry.mutationId),
    };
    if (entry.baseRev !== null && entry.kind === 'update') headers['X-Base-Rev'] = String(entry.baseRev);
    let response: Response;
    try {
      response = await request(entry.method, entry.path, headers, entry.body);
    } catch (error) {
      if (stopped) return 'stopped';
      noteNetworkTrouble("Can't reach the server. Your changes are saved on this device and will sync when the connection is back.");
      const until = await releaseHead(entry, backoffMs(entry.attempts, random), String((error as Error)?.message ?? error));
      return { transientUntil: until };
    }
    if (stopped) return 'stopped';
    const body = await readJson(response).catch(() => null);
    if (stopped) return 'stopped';
    if (response.ok) {
      await acknowledge(entry, body, response.status);
      return 'acked';
    }
    if (response.status === 401) {
      await db.outbox.update(entry.seq!, { status: 'pending' });
      pauseForAuth();
      return 'auth';
    }
    if (isTransientStatus(response.status)) {
      const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), now());
      const delay = Math.max(backoffMs(entry.attempts, random), retryAfter ?? 0);
      status.getState().reportError({ kind: 'server', message: 'The server is busy. Your changes are saved on this device and will be retried.', at: now() });
      const until = await releaseHead(entry, delay, `HTTP ${response.status}`);
      return { transientUntil: until };
    }
    if (entry.method === 'DELETE' && response.status === 404) {
      // Already gone on the server: the delete's goal is reached.
      await acknowledge(entry, null, 404);
      return 'acked';
    }
    await reject(entry, response.status, asApiError(body, response.status));
    return 'rejected';
  }

  /** Entries a previous leader (a closed tab, a crash) left in flight go again; the server replays them. */
  let recovered = false;
  async function recoverInflight(): Promise<void> {
    if (recovered) return;
    recovered = true;
    await db.outbox.where('status').equals('inflight').modify({ status: 'pending' });
  }

  async function pushCycle(): Promise<PushResult> {
    const result: PushResult = { acked: 0, rejected: 0, retryAt: null, paused: false };
    await recoverInflight();
    const { clientId } = await readSyncState(db);
    while (!stopped && !paused) {
      if (batchAvailable !== false && (await db.outbox.count()) >= batchThreshold) {
        const batched = await pushBatch(clientId, result);
        if (batched === 'done') continue;
        if (batched === 'stop') break;
      }
      const { entry, waitUntil } = await takeHead();
      if (!entry) {
        if (waitUntil !== null) {
          result.retryAt = waitUntil;
          schedulePush(waitUntil);
        }
        break;
      }
      const outcome = await sendOne(entry, clientId);
      if (outcome === 'acked') {
        result.acked += 1;
        clearTransientError();
      } else if (outcome === 'rejected') result.rejected += 1;
      else if (outcome === 'auth') {
        result.paused = true;
        break;
      } else if (outcome === 'stopped') break;
      else {
        result.retryAt = outcome.transientUntil;
        schedulePush(outcome.transientUntil);
        break;
      }
    }
    return result;
  }

  /**
   * A large backlog in one request: POST /api/sync/batch runs each entry through its own REST
   * route (same handler, same idempotency) in one server transaction and answers
   * `[{status, body}]` in order — shorter when it stopped at a transient answer. Each answer then
   * goes through the same handling as a single request's. 'fallback': no batch endpoint (404/405,
   * remembered) or nothing to batch — send one by one; 'done': handled, loop again; 'stop': paused,
   * stopped or waiting for a retry.
   */
  async function pushBatch(clientId: string, result: PushResult): Promise<'done' | 'fallback' | 'stop'> {
    const entries = await db.transaction('rw', db.outbox, async () => {
      const all = await db.outbox.orderBy('seq').limit(batchSize).toArray();
      const due: OutboxEntry[] = [];
      for (const e of all) {
        // A chained entry needs the answer before it (its base revision): the batch ends there.
        if (e.nextAttemptAt > now() || (e.chained && due.length > 0)) break;
        due.push({ ...e, status: 'inflight', attempts: e.attempts + 1 });
      }
      if (due.length >= 2) await db.outbox.bulkPut(due);
      return due;
    });
    if (entries.length < 2) return 'fallback';
    const body = {
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
    /**
     * Entries from `from` back to pending. Those at or after `notRunFrom` never reached a handler
     * (the server answered for fewer), so they get their attempt back and may still be coalesced
     * into; the others must never change. `at` delays the first one still in the outbox.
     */
    const putBack = async (from: number, notRunFrom: number, at = 0) => {
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
    };
    let response: Response;
    try {
      response = await request('POST', '/api/sync/batch', { 'X-Client-Id': clientId }, body);
    } catch {
      if (stopped) return 'stop';
      noteNetworkTrouble("Can't reach the server. Your changes are saved on this device and will sync when the connection is back.");
      const at = now() + backoffMs(entries[0]!.attempts, random);
      await putBack(0, entries.length, at);
      result.retryAt = at;
      schedulePush(at);
      return 'stop';
    }
    if (stopped) return 'stop';
    if (response.status === 404 || response.status === 405) {
      batchAvailable = false;
      await putBack(0, 0);
      return 'fallback';
    }
    const answers = await readJson(response).catch(() => null);
    if (stopped) return 'stop';
    if (response.status === 401) {
      await putBack(0, 0);
      pauseForAuth();
      result.paused = true;
      return 'stop';
    }
    if (!response.ok || !Array.isArray(answers)) {
      // The batch as a whole failed (busy server, a proxy's error page): back off, as for one entry.
      const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), now());
      const at = now() + Math.max(backoffMs(entries[0]!.attempts, random), retryAfter ?? 0);
      await putBack(0, entries.length, at);
      if (response.status >= 400 && response.status < 500 && !isTransientStatus(response.status)) batchAvailable = false;
      result.retryAt = at;
      schedulePush(at);
      return 'stop';
    }
    batchAvailable = true;
    clearTransientError();
    // Consecutive successes are acknowledged together, in one transaction; anything else first
    // lets the successes before it land, so every answer is handled in send order.
    const acks: Ack[] = [];
    const ackPending = async () => {
      result.acked += await acknowledgeAll(acks.splice(0));
    };
    for (const [i, entry] of entries.entries()) {
      const answer = answers[i] as { status?: unknown; body?: unknown } | undefined;
      const status = answer && typeof answer.status === 'number' ? answer.status : null;
      if (status !== null && status >= 200 && status < 300) {
        acks.push({ entry, body: answer!.body, status });
        continue;
      }
      if (status !== null && entry.method === 'DELETE' && status === 404) {
        acks.push({ entry, body: null, status });
        continue;
      }
      await ackPending();
      if (status === null) {
        await putBack(i, i); // not run: the batch stopped at a transient answer before it
        return 'done';
      }
      if (status === 401) {
        await putBack(i, i + 1);
        pauseForAuth();
        result.paused = true;
        return 'stop';
      } else if (isTransientStatus(status)) {
        const at = now() + backoffMs(entry.attempts, random);
        await putBack(i, i + 1, at);
        result.retryAt = at;
        schedulePush(at);
        return 'stop';
      } else if ((await reject(entry, status, asApiError(answer!.body, status))).length > 0) {
        result.rejected += 1;
      }
    }
    await ackPending();
    return 'done';
  }

  // -------------------------------------------------------------------------------------------
  // Pull

  async function purgeSeries(seriesIds: readonly string[]): Promise<void> {
    for (const seriesId of seriesIds) {
      // Work queued for a series the author can no longer reach can never succeed: keep its words.
      const entries = await db.outbox.where('seriesId').equals(seriesId).sortBy('seq');
      for (const entry of entries) {
        const letter: DeadLetter = {
          entry: { ...entry, status: 'pending' },
          status: 0,
          response: { message: 'You no longer have access to this series', code: 'FORBIDDEN' as ApiErrorBody['code'] },
          content: await recoverableContent(db, entry),
          createdAt: now(),
        };
        await db.deadLetters.add(letter);
        await db.outbox.delete(entry.seq!);
      }
      const chapterGone = new Set((await db.chapters.where('seriesId').equals(seriesId).primaryKeys()) as string[]);
      await db.series.delete(seriesId);
      await db.shadows.delete(['series', seriesId]);
      for (const kind of SERIES_CHILD_KINDS) {
        const ids = (await entityTable(db, kind).where('seriesId').equals(seriesId).primaryKeys()) as string[];
        await entityTable(db, kind).bulkDelete(ids);
        await db.shadows.bulkDelete(ids.map((id) => [kind, id] as [EntityKind, string]));
      }
      const drafts = await db.drafts.toArray();
      await db.drafts.bulkDelete(drafts.filter((d) => chapterGone.has(d.chapterId)).map((d) => d.chapterId));
    }
  }

  /** Applies one page of the feed and its cursor in ONE transaction with bulk writes. */
  async function applyPage(page: ChangesResponse): Promise<number> {
    let count = 0;
    await db.transaction('rw', SYNC_TABLES as unknown as string[], async () => {
      const removed = new Set(page.scopeRemoved);
      if (removed.size > 0) await purgeSeries([...removed]);
      // Shadows exist only for rows with unsent local changes: none at all on a first sync, and
      // then the per-row lookups (thousands of keys a page) are skipped.
      const anyShadows = (await db.shadows.count()) > 0;
      for (const kind of ENTITY_KINDS) {
        const rows = ((page.changes[kind] ?? []) as AnyRow[]).filter(
          (row) => !removed.has(kind === 'series' ? row.id : (row as { seriesId: string }).seriesId),
        );
        if (rows.length === 0) continue;
        count += rows.length;
        const shadows = anyShadows ? await db.shadows.bulkGet(rows.map((row) => [kind, row.id] as [EntityKind, string])) : [];
        const puts: AnyRow[] = [];
        const deletes: string[] = [];
        const rebased: AnyRow[] = [];
        rows.forEach((row, i) => {
          if (shadows[i]) rebased.push(row);
          else if (row.deletedAt) deletes.push(row.id);
          else puts.push(cleanRow(row));
        });
        const table = entityTable(db, kind);
        if (puts.length > 0) await table.bulkPut(puts as never[]);
        if (deletes.length > 0) await table.bulkDelete(deletes);
        for (const row of rebased) await applyServerRow(db, kind, row, false);
      }
      await db.syncState.update('state', { cursor: page.cursor, lastSyncedAt: now() });
    });
    return count;
  }

  async function pullCycle(): Promise<void> {
    for (let pages = 0; !stopped && !paused && pages < 10_000; pages++) {
      const state = await readSyncState(db);
      let response: Response;
      try {
        response = await request('GET', `/api/sync/changes?since=${state.cursor}&limit=${pageLimit}`, { 'X-Client-Id': state.clientId });
      } catch {
        if (stopped) return;
        pullAttempts += 1;
        noteNetworkTrouble("Can't reach the server. You can keep writing; changes sync when the connection is back.");
        schedulePull(now() + backoffMs(pullAttempts, random));
        return;
      }
      if (stopped) return;
      if (response.status === 401) {
        pauseForAuth();
        return;
      }
      if (!response.ok) {
        pullAttempts += 1;
        const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), now());
        if (isTransientStatus(response.status)) {
          status.getState().reportError({ kind: 'server', message: 'The server is busy; new changes from elsewhere will arrive shortly.', at: now() });
        } else {
          status.getState().reportError({ kind: 'server', message: `Could not fetch changes (HTTP ${response.status})`, at: now() });
        }
        schedulePull(now() + Math.max(backoffMs(pullAttempts, random), retryAfter ?? 0));
        return;
      }
      const page = (await readJson(response)) as ChangesResponse | null;
      if (stopped) return;
      if (!page || typeof page.cursor !== 'number' || !page.changes) {
        status.getState().reportError({ kind: 'server', message: 'The server sent changes this app cannot read', at: now() });
        return;
      }
      pullAttempts = 0;
      const rows = await applyPage(page);
      status.getState().setLastSyncedAt(now());
      clearTransientError();
      emit({ type: 'pulled', cursor: page.cursor, rows });
      if (!page.hasMore) return;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Scheduling: one loop at a time; triggers only set flags.

  async function drain(): Promise<void> {
    status.getState().setSyncing(true);
    try {
      while ((wantPush || wantPull) && !stopped && !paused) {
        if (wantPush) {
          wantPush = false;
          const result = await pushCycle();
          if (result.acked > 0 || result.rejected > 0) wantPull = true;
        } else {
          wantPull = false;
          await pullCycle();
        }
      }
    } catch (error) {
      if (!reportStorageError(error, status) && !stopped) {
        status.getState().reportError({ kind: 'storage', message: `Sync stopped: ${String((error as Error)?.message ?? error)}`, at: now() });
      }
    } finally {
      status.getState().setSyncing(false);
    }
  }

  function kick(push: boolean, pull: boolean): Promise<void> {
    if (stopped || !leader) return Promise.resolve();
    wantPush ||= push;
    wantPull ||= pull;
    if (!running) {
      running = drain().finally(() => {
        running = null;
      });
    }
    return running;
  }

  async function whenIdle(): Promise<void> {
    while (running) await running;
  }

  // -------------------------------------------------------------------------------------------
  // Leadership and live triggers

  function openEvents() {
    if (!eventSourceFactory || stopped) return;
    try {
      const source = eventSourceFactory(url('/api/sync/events'));
      eventSource = source;
      // `hello` on every (re)connect: anything missed while disconnected is pulled.
      source.addEventListener('hello', () => void kick(false, true));
      source.addEventListener('message', (event) => {
        // A poke for a commit already pulled (often our own write) needs no pull.
        let seq: number | null = null;
        try {
          const parsed = JSON.parse(event.data ?? 'null') as { seq?: unknown } | null;
          if (typeof parsed?.seq === 'number') seq = parsed.seq;
        } catch {
          seq = null;
        }
        if (seq === null) {
          void kick(false, true);
          return;
        }
        void readSyncState(db)
          .then((state) => (seq! > state.cursor ? kick(false, true) : undefined))
          .catch(() => kick(false, true));
      });
      source.onerror = () => {
        // EventSource reconnects by itself unless CLOSED (e.g. 401): then retry later ourselves.
        if (source.readyState === 2 && !stopped) {
          source.close();
          eventSource = null;
          if (sseRetry === null) {
            sseRetry = timers.setTimeout(() => {
              sseRetry = null;
              if (!paused) openEvents();
            }, 30_000);
          }
        }
      };
    } catch {
      eventSource = null;
    }
  }

  function listen(target: PlatformEvents | null | undefined, type: string, fn: () => void) {
    if (!target?.addEventListener) return;
    target.addEventListener(type, fn);
    cleanup.push(() => target.removeEventListener(type, fn));
  }

  async function becomeLeader(): Promise<void> {
    leader = true;
    status.getState().setLeader(true);
    recovered = false;
    await recoverInflight();
    openEvents();
    listen(win, 'online', () => {
      status.getState().setOnline(true);
      // Back on the network: what waited out a backoff goes now, not at the end of it.
      void db.outbox
        .where('status')
        .equals('pending')
        .modify({ nextAttemptAt: 0 })
        .catch(() => undefined)
        .then(() => kick(true, true));
    });
    listen(win, 'offline', () => status.getState().setOnline(false));
    listen(win, 'focus', () => void kick(true, true));
    listen(doc, 'visibilitychange', () => {
      if (!doc || doc.visibilityState !== 'hidden') void kick(true, true);
    });
    interval = timers.setInterval(() => void kick(true, true), pullIntervalMs);
    outboxSubscription = liveQuery(() => db.outbox.where('status').equals('pending').count()).subscribe({
      next: (n) => {
        if (n > 0) void kick(true, false);
      },
      error: () => undefined,
    });
    void kick(true, true);
  }

  function resignLeader() {
    leader = false;
    status.getState().setLeader(false);
    for (const fn of cleanup.splice(0)) fn();
    if (interval !== null) timers.clearInterval(interval);
    interval = null;
    for (const t of [pushTimer, pullTimer, sseRetry]) if (t !== null) timers.clearTimeout(t);
    pushTimer = pullTimer = sseRetry = null;
    eventSource?.close();
    eventSource = null;
    outboxSubscription?.unsubscribe();
    outboxSubscription = null;
  }

  const engine: SyncEngine = {
    start() {
      if (!stopped) return;
      stopped = false;
      if (!locks) {
        void becomeLeader();
        return;
      }
      void locks
        .request(`chronicler-sync-${db.userId}`, async () => {
          if (stopped) return;
          await becomeLeader();
          await new Promise<void>((resolve) => {
            releaseLock = resolve;
          });
        })
        .catch(() => undefined);
    },
    stop() {
      stopped = true;
      const wasSending = inFlight.size > 0;
      for (const controller of inFlight) controller.abort();
      if (wasSending) {
        // Not "busy" any more: the next leader sends them again (the server replays what it had).
        void db.outbox.where('status').equals('inflight').modify({ status: 'pending' }).catch(() => undefined);
      }
      resignLeader();
      releaseLock?.();
      releaseLock = null;
    },
    async sync() {
      if (stopped && !leader) {
        // Driven by hand (tests, a one-off sync): act as leader for this call.
        leader = true;
        stopped = false;
        try {
          await kick(true, true);
          await whenIdle();
        } finally {
          leader = false;
          stopped = true;
        }
        return;
      }
      await kick(true, true);
      await whenIdle();
    },
    async push() {
      const wasStopped = stopped;
      stopped = false;
      try {
        await whenIdle();
        return await pushCycle();
      } finally {
        if (wasStopped) stopped = true;
      }
    },
    async pull() {
      const wasStopped = stopped;
      stopped = false;
      try {
        await whenIdle();
        await pullCycle();
      } finally {
        if (wasStopped) stopped = true;
      }
    },
    resume() {
      paused = false;
      status.getState().setAuthRequired(false);
      const last = status.getState().lastError;
      if (last?.kind === 'auth') status.getState().clearError();
      if (leader && !eventSource) openEvents();
      void kick(true, true);
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get isLeader() {
      return leader;
    },
    get paused() {
      return paused;
    },
  };
  return engine;
}

