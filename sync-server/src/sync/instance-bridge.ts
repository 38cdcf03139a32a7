/**
 * Several instances on one PostgreSQL database (docs/server.md#postgresql): each instance's
 * commits and named events (presence, invites) reach the streams held by every other instance.
 * Commit notices go out as ids and seqs (the receiver reads audiences and rows from the database
 * itself, as for its own commits), split so each payload stays under PostgreSQL's 8,000 bytes;
 * on the listener's reconnect every local stream is poked to pull what may have been missed.
 */
import crypto from 'node:crypto';
import type { InstanceChannel } from '../db/database.ts';
import type { ChangeHub, LiveMessage } from './hub.ts';

/** The channel's message limit (db/postgres/notify.ts MAX_NOTIFY_BYTES). */
const MAX_BYTES = 7_900;
/** Ids per message: 36-character ids, quoted and separated, about 40 bytes each. */
const IDS_PER_MESSAGE = 150;

type Message =
  | { o: string; t: 'c'; seq: number; s: string[]; u: string[]; r: string[]; w: string | null }
  | { o: string; t: 'm'; u: string[]; e: string; d: unknown };

function chunks<T>(items: readonly T[], size: number): T[][] {
  if (items.length === 0) return [[]];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface InstanceBridge {
  /** This instance's id in the messages (tests). */
  readonly instanceId: string;
  stop(): void;
}

export function bridgeInstances(hub: ChangeHub, channel: InstanceChannel, currentSeq: () => Promise<number>, warn: (message: string) => void): InstanceBridge {
  const instanceId = crypto.randomUUID();
  const send = (message: Message) => {
    const payload = JSON.stringify(message);
    if (Buffer.byteLength(payload) > MAX_BYTES) return warn(`a cross-instance announcement of ${Buffer.byteLength(payload)} bytes was not sent`);
    channel.send(payload).catch(() => warn('a cross-instance announcement could not be sent (database unavailable)'));
  };
  const unsubscribe = hub.subscribe((notice) => {
    if (notice.remote) return;
    const users = [...(notice.userIds ?? [])];
    const records = [...(notice.records ?? [])];
    const seriesParts = chunks([...notice.seriesIds], IDS_PER_MESSAGE);
    const userParts = chunks(users, IDS_PER_MESSAGE);
    // Every part carries the seq: a receiver pokes with it (a pull covers all of the commit).
    for (let i = 0; i < Math.max(seriesParts.length, userParts.length); i++) {
      const u = userParts[i] ?? [];
      send({ o: instanceId, t: 'c', seq: notice.seq, s: seriesParts[i] ?? [], u, r: records.filter((id) => u.includes(id)), w: notice.writerId ?? null });
    }
  });
  const stopTelling = hub.onTell((userIds, message: LiveMessage) => {
    for (const u of chunks(userIds, IDS_PER_MESSAGE)) send({ o: instanceId, t: 'm', u, e: message.event, d: message.data });
  });
  channel.onMessage((payload) => {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.o === instanceId) return;
    if (message.t === 'c') {
      hub.publish({ seq: message.seq, seriesIds: new Set(message.s), userIds: new Set(message.u), records: new Set(message.r), writerId: message.w, remote: true });
    } else if (message.t === 'm') {
      hub.deliver(message.u, { event: message.e, data: message.d });
    }
  });
  channel.onReconnect(() => {
    currentSeq().then(
      (seq) => hub.pokeEveryone(seq),
      () => undefined,
    );
  });
  return {
    instanceId,
    stop() {
      unsubscribe();
      stopTelling();
    },
  };
}
