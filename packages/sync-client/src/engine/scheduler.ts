/**
 * When to sync (DESIGN.md §3): one loop at a time, and triggers only set flags — a push wanted, a
 * pull wanted. Triggers: new outbox entries, SSE pokes and (re)connects, `online`, focus and
 * visibility, a timer every minute, a retry time after a transient failure (backoff), and a pull
 * after every push that acknowledged or refused something.
 */
import { liveQuery } from 'dexie';
import { LIVE_EVENTS } from '@chronicler/schema';
import { readSyncState } from '../db.ts';
import { reportStorageError } from '../storage.ts';
import type { EngineContext, PushResult } from './context.ts';
import type { DocumentEvents, EventSourceFactory, EventSourceLike, PlatformEvents, TimersLike } from './platform.ts';

export interface SchedulerOptions {
  push: () => Promise<PushResult>;
  pull: () => Promise<{ retryAt: number | null }>;
  /** The cursor the puller last read or wrote, if it knows it without reading the database. */
  knownCursor: () => number | null;
  timers: TimersLike;
  pullIntervalMs: number;
  eventSource: EventSourceFactory | null;
  window: PlatformEvents | null;
  document: DocumentEvents | null;
}

export interface Scheduler {
  /** Asks for a push and/or a pull; resolves when the loop is idle again. */
  kick(push: boolean, pull: boolean): Promise<void>;
  whenIdle(): Promise<void>;
  /** One push, its retry scheduled when it stopped on a transient failure. */
  runPush(): Promise<PushResult>;
  runPull(): Promise<void>;
  /** As leader: listen to every trigger and sync now. */
  startTriggers(): void;
  stopTriggers(): void;
  /** After a sign-in: the live channel again if it was closed. */
  reopenEvents(): void;
}

export function createScheduler(ctx: EngineContext, options: SchedulerOptions): Scheduler {
  const { db, now, status, flags } = ctx;
  const { timers } = options;
  let running: Promise<void> | null = null;
  let wantPush = false;
  let wantPull = false;
  const retryTimers: Record<'push' | 'pull', unknown> = { push: null, pull: null };
  let interval: unknown = null;
  let eventSource: EventSourceLike | null = null;
  let sseRetry: unknown = null;
  let outboxSubscription: { unsubscribe(): void } | null = null;
  const cleanup: (() => void)[] = [];

  /** A push or a pull at `at` (a retry after a transient failure); replaces one already set. */
  function scheduleKick(which: 'push' | 'pull', at: number) {
    if (flags.stopped) return;
    if (retryTimers[which] !== null) timers.clearTimeout(retryTimers[which]);
    retryTimers[which] = timers.setTimeout(() => {
      retryTimers[which] = null;
      void kick(which === 'push', which === 'pull');
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
    try {
      while ((wantPush || wantPull) && !flags.stopped && !flags.paused) {
        if (wantPush) {
          wantPush = false;
          const result = await runPush();
          if (result.acked > 0 || result.rejected > 0) wantPull = true;
        } else {
          wantPull = false;
          await runPull();
        }
      }
    } catch (error) {
      if (!reportStorageError(error, status) && !flags.stopped) {
        status.getState().reportError({ kind: 'storage', message: `Sync stopped: ${String((error as Error)?.message ?? error)}`, at: now() });
      }
    } finally {
      status.getState().setSyncing(false);
    }
  }

  function kick(push: boolean, pull: boolean): Promise<void> {
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

  function openEvents() {
    if (!options.eventSource || flags.stopped) return;
    try {
      const source = options.eventSource(ctx.transport.url('/api/sync/events'));
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
        const known = options.knownCursor();
        if (known !== null) {
          if (seq > known) void kick(false, true);
          return;
        }
        void readSyncState(db)
          .then((state) => (seq! > state.cursor ? kick(false, true) : undefined))
          .catch(() => kick(false, true));
      });
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
    interval = timers.setInterval(() => void kick(true, true), options.pullIntervalMs);
    outboxSubscription = liveQuery(() => db.outbox.where('status').equals('pending').count()).subscribe({
      next: (n) => {
        if (n > 0) void kick(true, false);
      },
      error: () => undefined,
    });
    void kick(true, true);
  }

  function stopTriggers() {
    for (const fn of cleanup.splice(0)) fn();
    if (interval !== null) timers.clearInterval(interval);
    interval = null;
    for (const t of [retryTimers.push, retryTimers.pull, sseRetry]) if (t !== null) timers.clearTimeout(t);
    retryTimers.push = retryTimers.pull = sseRetry = null;
    eventSource?.close();
    eventSource = null;
    outboxSubscription?.unsubscribe();
    outboxSubscription = null;
  }

  return {
    kick,
    whenIdle,
    runPush,
    runPull,
    startTriggers,
    stopTriggers,
    reopenEvents() {
      if (flags.leader && !eventSource) openEvents();
    },
  };
}
