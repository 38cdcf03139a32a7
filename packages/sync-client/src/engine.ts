/**
 * The sync engine (docs/sync-protocol.md): one leader tab per user (Web Locks) pushes the outbox in
 * order through the spec's REST calls and pulls the changes feed into Dexie. This file only wires
 * the parts in `engine/`:
 *
 *   platform     the injected browser pieces (fetch, EventSource, Web Locks, timers, window/document)
 *   transport    requests with headers and a timeout; answers classified by the shared status contract
 *   pictures     pictures made on the device, uploaded before the outbox (content-addressed PUTs)
 *   push         the outbox in order, one request per entry   push-batch   a backlog in one request
 *   acknowledge  success answers applied in groups             dead-letters changes kept aside (one builder)
 *   pull         the changes feed, page by page, + purge of series out of scope
 *   live         pokes, and the rows a poke carries written without a pull
 *   scheduler    one loop at a time; timers, backoff retries, online/focus/SSE triggers
 *   leadership   the Web Lock that makes one tab the leader
 */
import type { ChroniclerDb } from './db.ts';
import { type SyncStatusStore, syncStatus } from './status.ts';
import { type EngineContext, type PushResult, type SyncEvent, createEngineContext } from './engine/context.ts';
import { type Leadership, requestLeadership } from './engine/leadership.ts';
import {
  DEFAULT_TIMERS,
  type DocumentEvents,
  type EventSourceFactory,
  type FetchLike,
  type LocksLike,
  type PlatformEvents,
  type TimersLike,
  browserDefaults,
} from './engine/platform.ts';
import { applyCarriedRows } from './engine/live.ts';
import { recountForWordRule } from './word-rule.ts';
import { createPuller } from './engine/pull.ts';
import { createPictureUploader } from './engine/pictures.ts';
import { createPusher } from './engine/push.ts';
import { type LiveChannelPolicy, createScheduler } from './engine/scheduler.ts';
import { createTransport } from './engine/transport.ts';

export type { EventSourceFactory, EventSourceLike, FetchLike, LocksLike, PlatformEvents, TimersLike } from './engine/platform.ts';
export type { PushResult, SyncEvent } from './engine/context.ts';
export type { LiveChannelPolicy } from './engine/scheduler.ts';
export { ACK_GROUP_MAX } from './engine/acknowledge.ts';
export { recoverableContent, removedByDeleteMessage } from './engine/dead-letters.ts';
export { LAST_SYNCED_REFRESH_MS } from './engine/pull.ts';

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
  /** When the live channel may first open (default: at once). See `LiveChannelPolicy`. */
  liveChannel?: LiveChannelPolicy;
  status?: SyncStatusStore;
  timers?: TimersLike;
  /** Window-like and document-like event targets; default globalThis / document. */
  platform?: { window?: PlatformEvents | null; document?: DocumentEvents | null };
  pullIntervalMs?: number;
  pageLimit?: number;
  /** Backlogs at least this long go through POST /api/sync/batch when the server has it. */
  batchThreshold?: number;
  batchSize?: number;
  /** Per-request timeout; a hung request is a transient failure. */
  requestTimeoutMs?: number;
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
  /**
   * Handles one poke (the data of an SSE `message` of GET /api/sync/events) as the live channel
   * would: for a host that carries the channel itself (a bench, a test). Resolves when idle.
   */
  receive(data: string): Promise<void>;
  /** After a new sign-in: clears the pause and syncs. */
  resume(): void;
  on(listener: (event: SyncEvent) => void): () => void;
  readonly isLeader: boolean;
  readonly paused: boolean;
}

/** Runs `fn` with the engine marked running (a hand-driven push or pull of a stopped engine). */
async function whileRunning<T>({ flags }: EngineContext, fn: () => Promise<T>): Promise<T> {
  const wasStopped = flags.stopped;
  flags.stopped = false;
  try {
    return await fn();
  } finally {
    if (wasStopped) flags.stopped = true;
  }
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { db } = options;
  const timers = options.timers ?? DEFAULT_TIMERS;
  const platform = browserDefaults(options);
  const ctx = createEngineContext({
    db,
    now: options.now ?? (() => Date.now()),
    random: options.random ?? Math.random,
    status: options.status ?? syncStatus,
    transport: createTransport({ fetch: options.fetch, baseUrl: options.baseUrl, timers, requestTimeoutMs: options.requestTimeoutMs ?? 60_000 }),
    onAuthRequired: options.onAuthRequired,
  });
  const { flags, status } = ctx;
  const pusher = createPusher(ctx, { batchThreshold: options.batchThreshold ?? 50, batchSize: options.batchSize ?? 200 });
  const puller = createPuller(ctx, options.pageLimit ?? 2_000);
  const uploader = createPictureUploader(ctx);
  const scheduler = createScheduler(ctx, {
    // Pictures first, so a device that receives a field naming one can usually fetch its bytes at
    // once; a picture waiting out a backoff never holds the text back (docs/decisions/0023-pictures-on-the-device.md).
    async push() {
      const pictures = await uploader.cycle();
      const result = await pusher.cycle();
      if (pictures.retryAt !== null && !result.paused) result.retryAt = Math.min(result.retryAt ?? Infinity, pictures.retryAt);
      return result;
    },
    pull: () => puller.cycle(),
    async applyCarried(poke) {
      const rows = await applyCarriedRows(ctx, poke);
      status.getState().setLastSyncedAt(ctx.now());
      ctx.emit({ type: 'carried', seq: poke.seq, rows });
    },
    knownCursor: () => puller.knownCursor(),
    timers,
    pullIntervalMs: options.pullIntervalMs ?? 60_000,
    liveOpenWhen: options.liveChannel?.openWhen ?? null,
    eventSource: platform.eventSource,
    window: platform.window,
    document: platform.document,
  });
  let leadership: Leadership | null = null;

  /** Runs the loop once for `start` and waits until idle; a stopped engine acts as leader for the call (driven by hand: tests, a one-off sync). */
  async function asLeader(start: () => Promise<void>): Promise<void> {
    const byHand = flags.stopped && !flags.leader;
    if (byHand) {
      flags.leader = true;
      flags.stopped = false;
    }
    try {
      await start();
      await scheduler.whenIdle();
    } finally {
      if (byHand) {
        flags.leader = false;
        flags.stopped = true;
      }
    }
  }

  async function becomeLeader(): Promise<void> {
    flags.leader = true;
    status.getState().setLeader(true);
    // Another tab may have led (and moved the cursor) since this one last did.
    puller.forget();
    pusher.forgetRecovery();
    await pusher.recoverInflight();
    scheduler.startTriggers();
    // Once per word rule: chapter counts made by an older one are made again (word-rule.ts), beside
    // the first sync rather than before it. A database closed meanwhile (sign-out) just stops it.
    void recountForWordRule(db).catch(() => undefined);
  }

  function resignLeader() {
    flags.leader = false;
    status.getState().setLeader(false);
    scheduler.stopTriggers();
  }

  return {
    start() {
      if (!flags.stopped) return;
      flags.stopped = false;
      leadership = requestLeadership(platform.locks, db.userId, { isStopped: () => flags.stopped, onGranted: becomeLeader });
    },
    stop() {
      flags.stopped = true;
      if (ctx.transport.abortAll()) {
        // Not "busy" any more: the next leader sends them again (the server replays what it had).
        void db.outbox.where('status').equals('inflight').modify({ status: 'pending' }).catch(() => undefined);
      }
      resignLeader();
      leadership?.release();
      leadership = null;
    },
    sync() {
      return asLeader(() => scheduler.kick({ push: true, pull: true }));
    },
    receive(data) {
      return asLeader(() => scheduler.receive(data));
    },
    push() {
      return whileRunning(ctx, () => scheduler.exclusively(() => scheduler.runPush()));
    },
    pull() {
      return whileRunning(ctx, () => scheduler.exclusively(() => scheduler.runPull()));
    },
    resume() {
      flags.paused = false;
      status.getState().setAuthRequired(false);
      if (status.getState().lastError?.kind === 'auth') status.getState().clearError();
      scheduler.reopenEvents();
      void scheduler.kick({ push: true, pull: true });
    },
    on: ctx.on,
    get isLeader() {
      return flags.leader;
    },
    get paused() {
      return flags.paused;
    },
  };
}
