/**
 * When to sync (docs/sync-protocol.md#pull-the-changes-feed): one loop at a time, and triggers only
 * set flags — a push wanted, a pull wanted — or queue the rows a poke carried (live.ts), written in
 * the same loop so they never interleave with a pull. Triggers: new outbox entries, SSE pokes and
 * (re)connects, `online`, focus and visibility, a timer every minute, a retry time after a
 * transient failure (backoff), and a pull after every push that acknowledged or refused something.
 */
import { liveQuery } from 'dexie';
import { LIVE_EVENTS } from '@chronicler/schema';
import { readSyncState } from '../db.ts';
import { reportStorageError } from '../storage.ts';
import type { EngineContext, PushResult } from './context.ts';
import { type Poke, parsePoke } from './live.ts';
import type { DocumentEvents, EventSourceFactory, EventSourceLike, PlatformEvents, TimersLike } from './platform.ts';

export interface SchedulerOptions {
  push: () => Promise<PushResult>;
  pull: () => Promise<{ retryAt: number | null }>;
  /** Writes the rows a poke carried. */
  applyCarried: (poke: Required<Poke>) => Promise<void>;
  /** The cursor the puller last read or wrote, if it knows it without reading the database. */
  knownCursor: () => number | null;
  timers: TimersLike;
  pullIntervalMs: number;
  eventSource: EventSourceFactory | null;
  /** When the live channel may first open (LiveChannelPolicy.openWhen); null: at once. */
  liveOpenWhen: LiveChannelPolicy['openWhen'] | null;
  window: PlatformEvents | null;
  document: DocumentEvents | null;
}

/**
 * When the live channel (docs/sync-protocol.md#live-channel) may first open: the host's choice. The
 * engine calls `openWhen` when it would open the stream and opens it once the promise settles —
 * fulfilled or rejected: a policy may delay the channel, never keep it shut. `signal` aborts when
 * the engine stops (or gives up leadership) first; the engine then opens nothing, and asks again
 * when it next would open the stream. Once allowed, the channel reopens without asking. Nothing
 * committed meanwhile is lost: the stream's `hello` carries the server's seq, and the engine pulls
 * what it missed.
 */
export interface LiveChannelPolicy {
  openWhen: (signal: AbortSignal) => Promise<void>;
}

/** What a trigger asks the loop for (nothing: run what is already wanted). */
export interface Wanted {
  push?: boolean;
  pull?: boolean;
}

export interface Scheduler {
  /** Asks for a push and/or a pull; resolves when the loop is idle again. */
  kick(wanted: Wanted): Promise<void>;
  whenIdle(): Promise<void>;
  /** One push, its retry scheduled when it stopped on a transient failure. */
  runPush(): Promise<PushResult>;
  runPull(): Promise<void>;
  /**
   * Runs `work` (a push or pull driven by hand) as the loop's one job: nothing the loop does — a
   * pull, the rows of a poke — runs beside it, so an older page never lands on newer rows.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** As leader: listen to every trigger and sync now. */
  startTriggers(): void;
  stopTriggers(): void;
  /** After a sign-in: the live channel again if it was closed. */
  reopenEvents(): void;
  /** Handles one poke as if it came on the live channel; resolves when the loop is idle again. */
  receive(data: string | undefined): Promise<void>;
}

/** Pokes with rows queued at most; past it they are dropped for one pull. */
const MAX_CARRIED = 100;

export function createScheduler(ctx: EngineContext, options: SchedulerOptions): Scheduler {
  const { db, now, status, flags } = ctx;
  const { timers } = options;
  let running: Promise<void> | null = null;
  let wantPush = false;
  let wantPull = false;
  /**
   * The newest seq a poke or hello announced while the loop was running: pulled for only if the
   * loop's own pulls did not reach it (the first connect's hello comes while the first pull is in
   * flight — a second pull of nothing, on the way to the first screen).
   */
  let announcedSeq = 0;
  /** True while drain's loop runs (it checks announcedSeq before it ends). */
  let draining = false;
  /** Pokes with rows, in the order they came, waiting for the loop. */
  const carried: Required<Poke>[] = [];
  const retryTimers: Record<'push' | 'pull', unknown> = { push: null, pull: null };
  let interval: unknown = null;
  let eventSource: EventSourceLike | null = null;
  let sseRetry: unknown = null;
  /** Whether the live channel's policy has let it open; its wait's abort while it waits. */
  let liveAllowed = options.liveOpenWhen === null;
  let liveWait: AbortController | null = null;
  let outboxSubscription: { unsubscribe(): void } | null = null;
  let picturesSubscription: { unsubscribe(): void } | null = null;
  const cleanup: (() => void)[] = [];

  /** A push or a pull at `at` (a retry after a transient failure); replaces one already set. */
  function scheduleKick(which: 'push' | 'pull', at: number) {
    if (flags.stopped) return;
    if (retryTimers[which] !== null) timers.clearTimeout(retryTimers[which]);
    retryTimers[which] = timers.setTimeout(() => {
      retryTimers[which] = null;
      void kick({ [which]: true });
    }, Math.max(0, at - now()));
  }

  async function runPush(): Promise<PushResult> {
    const result = await options.push();
    if (result.retryAt !== null) scheduleKick('push', result.retryAt);
    return result;
  }

  async function runPull(): Promise<void> {
    const { retryAt } = await options.pull();
    if (retryAt !== null) scheduleKick('pull', retryAt);
  }

  async function drain(): Promise<void> {
    status.getState().setSyncing(true);
    draining = true;
    try {
      while ((wantPush || wantPull || carried.length > 0 || announcedSeq > 0) && !flags.stopped && !flags.paused) {
        if (wantPush) {
          wantPush = false;
          const result = await runPush();
          if (result.acked > 0 || result.rejected > 0) wantPull = true;
        } else if (carried.length > 0) {
          const poke = carried.shift()!;
          try {
            await options.applyCarried(poke);
          } catch (error) {
            // Not written here: the feed brings the same rows (and reports a storage error itself).
            if (flags.stopped) throw error;
            wantPull = true;
          }
        } else if (wantPull) {
          wantPull = false;
          announcedSeq = 0; // this pull reads to the server's head
          await runPull();
        } else {
          const seq = announcedSeq;
          announcedSeq = 0;
          if (await isBehind(seq)) await runPull();
        }
      }
    } catch (error) {
      if (!reportStorageError(error, status) && !flags.stopped) {
        status.getState().reportError({ kind: 'storage', message: `Sync stopped: ${String((error as Error)?.message ?? error)}`, at: now() });
      }
    } finally {
      draining = false;
      status.getState().setSyncing(false);
    }
  }

  function kick({ push = false, pull = false }: Wanted): Promise<void> {
    if (flags.stopped || !flags.leader) return Promise.resolve();
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

  async function exclusively<T>(work: () => Promise<T>): Promise<T> {
    await whenIdle();
    const job = work();
    const done = job.then(
      () => undefined,
      () => undefined,
    );
    running = done.finally(() => {
      running = null;
      // What was asked for meanwhile (a poke's rows, a pull) runs now.
      if (wantPush || wantPull || carried.length > 0 || announcedSeq > 0) void kick({});
    });
    return job;
  }

  /** A poke (an SSE `message`): its rows queued for the loop, or a pull when one is needed. */
  function receive(data: string | undefined): Promise<void> {
    const poke = parsePoke(data);
    if (poke === null) return kick({ pull: true });
    const { seq } = poke;
    if (poke.changes) {
      // A backlog this long means the loop is stuck behind something: the feed catches up instead.
      if (carried.length >= MAX_CARRIED) {
        carried.length = 0;
        return kick({ pull: true });
      }
      carried.push(poke as Required<Poke>);
      return kick({});
    }
    // A poke for a commit already pulled (often our own write) needs no pull. While the loop runs,
    // what it pulls may reach the seq: it is checked once the loop gets to it.
    if (draining) {
      announcedSeq = Math.max(announcedSeq, seq);
      return running ?? Promise.resolve();
    }
    return isBehind(seq).then((behind) => (behind ? kick({ pull: true }) : undefined));
  }

  /** True when this device has not pulled up to `seq` (or cannot tell). */
  async function isBehind(seq: number): Promise<boolean> {
    const known = options.knownCursor();
    if (known !== null) return seq > known;
    try {
      return seq > (await readSyncState(db)).cursor;
    } catch {
      return true;
    }
  }

  function openEvents() {
    if (!options.eventSource || flags.stopped) return;
    if (!liveAllowed) {
      if (liveWait !== null) return; // already waiting
      const wait = new AbortController();
      liveWait = wait;
      const allow = () => {
        if (wait.signal.aborted) return;
        liveWait = null;
        liveAllowed = true;
        if (flags.leader && !flags.paused && !eventSource) openEvents();
      };
      // A policy that throws rather than rejecting is a rejection too.
      new Promise<void>((resolve) => resolve(options.liveOpenWhen!(wait.signal))).then(allow, allow);
      return;
    }
    try {
      const source = options.eventSource(ctx.transport.url('/api/sync/events'));
      eventSource = source;
      // `hello` on every (re)connect carries the server's seq: anything missed while disconnected is pulled.
      source.addEventListener('hello', (event) => void receive(event.data));
      source.addEventListener('message', (event) => void receive(event.data));
      for (const name of LIVE_EVENTS) {
        source.addEventListener(name, (event) => {
          let data: unknown = null;
          try {
            data = JSON.parse(event.data ?? 'null');
          } catch {
            return; // not ours to guess at
          }
          ctx.emit({ type: 'live', event: name, data });
        });
      }
      source.onerror = () => {
        // EventSource reconnects by itself unless CLOSED (e.g. 401): then retry later ourselves.
        if (source.readyState === 2 && !flags.stopped) {
          source.close();
          eventSource = null;
          if (sseRetry === null) {
            sseRetry = timers.setTimeout(() => {
              sseRetry = null;
              if (!flags.paused) openEvents();
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

  function startTriggers() {
    const { window: win, document: doc } = options;
    openEvents();
    listen(win, 'online', () => {
      status.getState().setOnline(true);
      // Back on the network: what waited out a backoff goes now, not at the end of it.
      void Promise.all([
        db.outbox.where('status').equals('pending').modify({ nextAttemptAt: 0 }),
        db.pictures.where('uploaded').equals(0).modify({ nextAttemptAt: 0 }),
      ])
        .catch(() => undefined)
        .then(() => kick({ push: true, pull: true }));
    });
    listen(win, 'offline', () => status.getState().setOnline(false));
    listen(win, 'focus', () => void kick({ push: true, pull: true }));
    listen(doc, 'visibilitychange', () => {
      if (!doc || doc.visibilityState !== 'hidden') void kick({ push: true, pull: true });
    });
    interval = timers.setInterval(() => void kick({ push: true, pull: true }), options.pullIntervalMs);
    outboxSubscription = liveQuery(() => db.outbox.where('status').equals('pending').count()).subscribe({
      next: (n) => {
        if (n > 0) void kick({ push: true });
      },
      error: () => undefined,
    });
    // A picture stored on the device is queued for upload (engine/pictures.ts).
    picturesSubscription = liveQuery(() => db.pictures.where('uploaded').equals(0).count()).subscribe({
      next: (n) => {
        if (n > 0) void kick({ push: true });
      },
      error: () => undefined,
    });
    void kick({ push: true, pull: true });
  }

  function stopTriggers() {
    for (const fn of cleanup.splice(0)) fn();
    carried.length = 0; // the next leader pulls them
    if (interval !== null) timers.clearInterval(interval);
    interval = null;
    for (const t of [retryTimers.push, retryTimers.pull, sseRetry]) if (t !== null) timers.clearTimeout(t);
    retryTimers.push = retryTimers.pull = sseRetry = null;
    eventSource?.close();
    eventSource = null;
    liveWait?.abort();
    liveWait = null;
    outboxSubscription?.unsubscribe();
    outboxSubscription = null;
    picturesSubscription?.unsubscribe();
    picturesSubscription = null;
  }

  return {
    kick,
    whenIdle,
    runPush,
    runPull,
    exclusively,
    startTriggers,
    stopTriggers,
    reopenEvents() {
      if (flags.leader && !eventSource) openEvents();
    },
    receive,
  };
}
