/**
 * GET /api/sync/events — server-sent events (docs/sync-protocol.md#live-channel). On connect:
 * `event: hello` with the current seq. After each commit that touches a series the caller can see
 * (owner or member, including a membership just granted or just revoked): `data: {"seq":N}` (the
 * client then pulls the changes feed), or `data: {"seq":N,"changes":{…}}` when the poke carries the
 * commit's rows (live-rows.ts: the client writes them and pulls later); likewise after each commit
 * that wrote the caller's own user-scoped rows (their record: plan, settings). Named events that
 * are not commits (`event: presence`, `event: invites`; packages/schema LIVE_EVENTS) are told to a
 * stream by the hub as they happen. A comment line every 25 s keeps proxies from closing an idle
 * stream.
 *
 * Who hears a commit is decided once per commit by the hub's audience query (hub.ts), so a write
 * touches only the streams that can see it. An author may hold MAX_STREAMS_PER_SESSION streams
 * per session and MAX_STREAMS_PER_AUTHOR in all (tabs and devices); more answer 429.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, GENERIC_MESSAGES } from '@chronicler/schema';
import { type CommitNotice, plainPokeFrame } from './hub.ts';
import { requireUser, sessionTokenOf } from '../http/caller.ts';
import { currentSeq } from './changes.ts';
import { type CommitRows, LIVE_ROWS_MAX_BYTES, readCommitRows } from './live-rows.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_FAMILIES } from '../db/prepared-keys.ts';

export const SSE_HEARTBEAT_MS = 25_000;
/** Tells EventSource how soon to reconnect after a drop. */
const RECONNECT_MS = 3_000;
/** Browsers open at most 6 connections per host over HTTP/1.1: more from one session are not tabs. */
export const MAX_STREAMS_PER_SESSION = 6;
export const MAX_STREAMS_PER_AUTHOR = 20;
const OVER_CAP_RETRY_S = 30;

/**
 * A stream whose socket holds this much unsent, beyond what the kernel took, is dropped
 * (back-pressure): the largest poke's rows (LIVE_ROWS_MAX_BYTES).
 */
export const STREAM_BACKLOG_BYTES = LIVE_ROWS_MAX_BYTES;
/** A stream whose socket has taken nothing for this long is dropped (a stalled reader). */
export const STALLED_STREAM_MS = 60_000;

/** Streams dropped for falling behind, since the process started (tests, metrics). */
export const streamStats = { dropped: 0 };

export function registerEventsRoute(app: FastifyInstance, options: { heartbeatMs?: number; stalledStreamMs?: number } = {}): void {
  const heartbeatMs = options.heartbeatMs ?? SSE_HEARTBEAT_MS;
  const stalledStreamMs = options.stalledStreamMs ?? STALLED_STREAM_MS;
  const { database, hub } = app.deps;
  const { db } = database;
  /** Open streams, ended before the server closes so app.close() never waits on them. */
  const openStreams = new Set<() => void>();
  const streamsPerSession = new Map<string, number>();
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
  });

  hub.setAudience(async (notice: CommitNotice) => {
    const ids = [...notice.seriesIds];
    const own = notice.userIds ?? new Set<string>();
    if (ids.length === 0) return own;
    // Owners and members, and a member revoked by this very commit (told once, so the client drops
    // the series), in one prepared statement per number of series: the pokes wait for it.
    const values: Record<string, string | number> = { seq: notice.seq };
    ids.forEach((id, i) => (values[`s${i}`] = id));
    const audience = await runPrepared(
      db,
      PREPARED_FAMILIES.hubAudience(ids.length),
      (q, v: typeof values) => {
        const seriesIds = ids.map((_, i) => v[`s${i}`]!);
        return q
          .selectFrom('series')
          .select('ownerId as userId')
          .where('id', 'in', seriesIds)
          .union(
            q
              .selectFrom('seriesMembers')
              .select('userId')
              .where('seriesId', 'in', seriesIds)
              .where((eb) => eb.or([eb('deletedAt', 'is', null), eb('rev', '=', v.seq!)])),
          );
      },
      values,
    );
    return new Set([...own, ...audience.map((r) => (r as { userId: string }).userId)]);
  });

  hub.setRowsOfCommit((notice) => readCommitRows(db, notice.seq, notice.seriesIds));

  app.get('/api/sync/events', async (request, reply) => {
    const user = requireUser(request);
    const session = sessionTokenOf(request) ?? '';
    if ((streamsPerSession.get(session) ?? 0) >= MAX_STREAMS_PER_SESSION || hub.countOf(user.id) >= MAX_STREAMS_PER_AUTHOR) {
      return reply
        .status(429)
        .header('retry-after', String(OVER_CAP_RETRY_S))
        .send({ message: GENERIC_MESSAGES.rateLimited, code: ERROR_CODES.rateLimited });
    }
    streamsPerSession.set(session, (streamsPerSession.get(session) ?? 0) + 1);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Tells nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();

    let open = true;
    /** Until hello is sent, pokes only raise the seq to send after it. */
    let greeted = false;
    let lastSentSeq = 0;
    let pendingSeq = 0;
    /** performance.now() when the socket last refused more (its buffer full), or null while it keeps up. */
    let stalledSince: number | null = null;
    /**
     * Back-pressure: a stream that cannot keep up is dropped, never buffered without bound — its
     * client reconnects and pulls what it missed (the feed is the source of truth). Dropped when
     * what waits for its socket passes STREAM_BACKLOG_BYTES, or when the socket has taken nothing
     * for stalledStreamMs.
     */
    const fallenBehind = () => {
      if (!res.writableNeedDrain) return false;
      stalledSince ??= performance.now();
      return res.writableLength >= STREAM_BACKLOG_BYTES || performance.now() - stalledSince >= stalledStreamMs;
    };
    const write = (frame: string | Buffer) => {
      if (!open || res.destroyed) return;
      if (fallenBehind()) {
        streamStats.dropped += 1;
        end();
        res.destroy();
        return;
      }
      res.write(frame);
    };
    res.on('drain', () => (stalledSince = null));
    const poke = (seq: number, rows: CommitRows | null, plainFrame: Buffer | null) => {
      if (!greeted) {
        pendingSeq = Math.max(pendingSeq, seq);
        return;
      }
      // Rows are written whatever the order (the device keeps the newer of two revisions); a plain
      // poke at or below one already sent would only ask for a pull that is asked for already.
      if (rows) {
        lastSentSeq = Math.max(lastSentSeq, seq);
        write(rows.frame);
        return;
      }
      if (seq <= lastSentSeq) return;
      lastSentSeq = seq;
      write(plainFrame ?? plainPokeFrame(seq));
    };

    const unsubscribe = hub.subscribeAuthor(
      user.id,
      (notice, rows, plainFrame) => poke(notice.seq, rows, plainFrame),
      (_message, frame) => write(frame),
    );
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
    heartbeat.unref();

    const end = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      unsubscribe();
      const left = (streamsPerSession.get(session) ?? 1) - 1;
      if (left > 0) streamsPerSession.set(session, left);
      else streamsPerSession.delete(session);
      openStreams.delete(end);
      if (!res.writableEnded) res.end();
    };
    openStreams.add(end);
    res.on('close', end);
    request.raw.on('close', end);

    // Subscribed first, then read: a commit between the two is either in the hello seq or poked.
    try {
      const seq = await currentSeq(db);
      lastSentSeq = seq;
      greeted = true;
      write(`retry: ${RECONNECT_MS}\nevent: hello\ndata: {"seq":${seq}}\n\n`);
      if (pendingSeq > seq) poke(pendingSeq, null, null);
    } catch (error) {
      request.log.warn({ err: error }, 'sync events: hello failed');
      end();
    }
  });
}
