/**
 * What the engine's parts share: the database, the clock, the status store, the transport, the
 * running/paused flags, the event listeners, and the few status reports every part makes.
 */
import type { EntityKind, LiveEventName } from '@chronicler/schema';
import type { ChroniclerDb, DeadLetter, OutboxEntry } from '../db.ts';
import type { SyncStatusStore } from '../status.ts';
import type { Transport } from './transport.ts';

export type SyncEvent =
  | { type: 'problem'; deadLetter: DeadLetter; message: string }
  | { type: 'conflict'; chapterId: string; conflictId: string }
  | { type: 'acked'; idemKey: string; status: number; kind: OutboxEntry['kind']; entity: EntityKind; entityId: string; mergeStatus?: string }
  | { type: 'auth-required' }
  /**
   * One page of changes applied: `hasMore`, more pages follow at once (a first sync arriving);
   * the series that entered or left the author's scope with it.
   */
  | { type: 'pulled'; cursor: number; rows: number; hasMore: boolean; scopeAdded: string[]; scopeRemoved: string[] }
  /** Rows a poke carried were written (`rows` of them; 0 when this device had them or will pull them). */
  | { type: 'carried'; seq: number; rows: number }
  /** A named event on the live channel that is not a commit (packages/schema LIVE_EVENTS): heard by the leader tab only. */
  | { type: 'live'; event: LiveEventName; data: unknown }
  /** A picture's bytes reached the server (engine/pictures.ts). */
  | { type: 'picture-uploaded'; sha256: string; seriesId: string }
  /** The server refused a picture for good (413 over the allowance, 403 without `multimedia`, 415): not retried. */
  | { type: 'picture-refused'; sha256: string; seriesId: string; status: number; message: string };

export interface PushResult {
  acked: number;
  rejected: number;
  /** Stopped on a transient failure (or a waiting head): retry at this time. */
  retryAt: number | null;
  paused: boolean;
}

export interface EngineFlags {
  /** Not syncing: never started, stopped, or between hand-driven calls. */
  stopped: boolean;
  /** The server answered 401: nothing is sent until `resume()`. */
  paused: boolean;
  /** This instance runs the sync loop (it holds the Web Lock, or is driven by hand). */
  leader: boolean;
}

export interface EngineContext {
  readonly db: ChroniclerDb;
  readonly now: () => number;
  readonly random: () => number;
  readonly status: SyncStatusStore;
  readonly transport: Transport;
  readonly flags: EngineFlags;
  emit(event: SyncEvent): void;
  on(listener: (event: SyncEvent) => void): () => void;
  /** A 401: pause, tell the status store, the listeners and the app (`onAuthRequired`). */
  pauseForAuth(): void;
  noteNetworkTrouble(message: string): void;
  /** A request went through: a network or busy-server error shown before is over. */
  clearTransientError(): void;
}

export const OFFLINE_PUSH_MESSAGE = "Can't reach the server. Your changes are saved on this device and will sync when the connection is back.";
export const OFFLINE_PULL_MESSAGE = "Can't reach the server. You can keep writing; changes sync when the connection is back.";

export interface EngineContextOptions {
  db: ChroniclerDb;
  now: () => number;
  random: () => number;
  status: SyncStatusStore;
  transport: Transport;
  onAuthRequired?: (() => void) | undefined;
}

export function createEngineContext({ db, now, random, status, transport, onAuthRequired }: EngineContextOptions): EngineContext {
  const listeners = new Set<(event: SyncEvent) => void>();
  const flags: EngineFlags = { stopped: true, paused: false, leader: false };
  const emit = (event: SyncEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch {
        // a listener's failure is not the engine's
      }
    }
  };
  return {
    db,
    now,
    random,
    status,
    transport,
    flags,
    emit,
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pauseForAuth() {
      if (flags.paused) return;
      flags.paused = true;
      status.getState().setAuthRequired(true);
      status.getState().reportError({ kind: 'auth', message: 'Please sign in again to sync your changes. They are kept on this device.', at: now() });
      emit({ type: 'auth-required' });
      try {
        onAuthRequired?.();
      } catch {
        // the app's handler must not break the engine
      }
    },
    noteNetworkTrouble(message) {
      status.getState().reportError({ kind: 'network', message, at: now() });
    },
    clearTransientError() {
      const last = status.getState().lastError;
      if (last && (last.kind === 'network' || last.kind === 'server')) status.getState().clearError();
    },
  };
}
