/**
 * Presence on several instances (docs/server.md#postgresql): an author's editor may send its
 * heartbeats to any instance, and the others in the chapter may hold their streams on any other.
 * Every instance keeps the whole board: each arrival, heartbeat, goodbye and closed last stream
 * is applied here and sent to the other instances on the shared announcement channel, which apply
 * it without announcing it again (the instance that took the request tells the chapter's audience,
 * and that event crosses instances like every named event, sync/instance-bridge.ts).
 *
 * Still not data: an instance that starts (or whose listener reconnects) knows nobody until the
 * next heartbeat, at most PRESENCE_HEARTBEAT_MS later; entries an instance that died last renewed
 * expire by the TTL everywhere.
 */
import crypto from 'node:crypto';
import type { InstanceChannel } from '../db/database.ts';
import type { PresenceBoard, PresenceChange } from './presence.ts';

/** What crosses the channel (short keys: a payload is limited to 8,000 bytes; `t: 'p'` tells it from the commit bridge's). */
type PresenceMessage =
  | { o: string; t: 'p'; op: 'enter'; c: string; s: string; u: string; n: string }
  | { o: string; t: 'p'; op: 'leave'; c: string; u: string }
  | { o: string; t: 'p'; op: 'gone'; u: string };

/** The board's writes, applied here and on every other instance. */
export interface SharedPresence {
  enter(chapterId: string, seriesId: string, userId: string, displayName: string, now: number): PresenceChange | null;
  leave(chapterId: string, userId: string): PresenceChange | null;
  /** `userId`'s last stream on this instance closed. */
  gone(userId: string): PresenceChange[];
}

/** A board of this process alone (SQLite: one process) — or, once `shareThrough` ran, of every instance. */
export function sharedPresence(board: PresenceBoard, clock: () => number = Date.now): SharedPresence & { shareThrough(channel: InstanceChannel, warn: (message: string) => void): void } {
  const instanceId = crypto.randomUUID();
  let send: ((message: PresenceMessage) => void) | null = null;
  return {
    enter(chapterId, seriesId, userId, displayName, now) {
      send?.({ o: instanceId, t: 'p', op: 'enter', c: chapterId, s: seriesId, u: userId, n: displayName });
      return board.enter(chapterId, seriesId, userId, displayName, now);
    },
    leave(chapterId, userId) {
      send?.({ o: instanceId, t: 'p', op: 'leave', c: chapterId, u: userId });
      return board.leave(chapterId, userId);
    },
    gone(userId) {
      send?.({ o: instanceId, t: 'p', op: 'gone', u: userId });
      return board.leaveAll(userId);
    },
    shareThrough(channel, warn) {
      send = (message) => {
        // A lost message costs at most one heartbeat's wait: the next one says the truth.
        channel.send(JSON.stringify(message)).catch(() => warn('a presence change could not be sent to the other instances (database unavailable)'));
      };
      channel.onMessage((payload) => {
        const message = parsePresence(payload);
        if (!message || message.o === instanceId) return;
        if (message.op === 'enter') board.enter(message.c, message.s, message.u, message.n, clock());
        else if (message.op === 'leave') board.leave(message.c, message.u);
        else board.leaveAll(message.u);
      });
    },
  };
}

function parsePresence(payload: string): PresenceMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(payload);
  } catch {
    return null;
  }
  const m = message as Partial<PresenceMessage> | null;
  if (!m || m.t !== 'p' || typeof m.o !== 'string' || typeof m.u !== 'string') return null;
  if (m.op === 'enter') return typeof m.c === 'string' && typeof m.s === 'string' && typeof m.n === 'string' ? (m as PresenceMessage) : null;
  if (m.op === 'leave') return typeof m.c === 'string' ? (m as PresenceMessage) : null;
  return m.op === 'gone' ? (m as PresenceMessage) : null;
}
