/**
 * GET /api/sync/events — server-sent events (DESIGN.md §3 "Live"). On connect: `event: hello` with
 * the current seq. After each commit that touches a series in the caller's scope: `data: {"seq":N}`
 * (the client then pulls the changes feed). A comment line every 25 s keeps proxies from closing
 * an idle stream.
 *
 * The scope is cached per stream. A commit touching a series outside it may be the caller joining
 * that series (or creating a new one), so such a notice re-reads the scope once before deciding;
 * the heartbeat re-reads it too, so revoked series stop poking.
 */
import type { FastifyInstance } from 'fastify';
import type { CommitNotice } from './hub.ts';
import { requireUser } from '../auth/session.ts';
import { currentSeq, readScope } from './changes.ts';

export const SSE_HEARTBEAT_MS = 25_000;
/** Tells EventSource how soon to reconnect after a drop. */
const RECONNECT_MS = 3_000;

function touchesScope(notice: CommitNotice, scope: ReadonlySet<string>): boolean {
  for (const id of notice.seriesIds) if (scope.has(id)) return true;
  return false;
}

export function registerEventsRoute(app: FastifyInstance, options: { heartbeatMs?: number } = {}): void {
  const heartbeatMs = options.heartbeatMs ?? SSE_HEARTBEAT_MS;
  const { database, hub } = app.deps;
  /** Open streams, ended before the server closes so app.close() never waits on them. */
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
  });

  app.get('/api/sync/events', async (request, reply) => {
    const user = requireUser(request);
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
    let scope: Set<string> = new Set();
    let lastSentSeq = 0;
    const write = (text: string) => {
      if (open && !res.destroyed) res.write(text);
    };
    const poke = (seq: number) => {
      if (seq <= lastSentSeq) return;
      lastSentSeq = seq;
      write(`data: {"seq":${seq}}\n\n`);
    };

    // Notices are handled one at a time, in order, so pokes never go backwards and a scope
    // refresh finishes before the next notice is judged.
    let queue: Promise<void> = Promise.resolve();
    const enqueue = (step: () => Promise<void>) => {
      queue = queue.then(() => (open ? step() : undefined)).catch((error: unknown) => {
        request.log.warn({ err: error }, 'sync events: scope refresh failed');
      });
    };

    const unsubscribe = hub.subscribe((notice) => {
      enqueue(async () => {
        if (!touchesScope(notice, scope)) {
          scope = await readScope(database.db, user.id);
          if (!touchesScope(notice, scope)) return;
        }
        poke(notice.seq);
      });
    });
    const heartbeat = setInterval(() => {
      write(': keep-alive\n\n');
      enqueue(async () => {
        scope = await readScope(database.db, user.id);
      });
    }, heartbeatMs);
    heartbeat.unref();

    const end = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      unsubscribe();
      openStreams.delete(end);
      if (!res.writableEnded) res.end();
    };
    openStreams.add(end);
    res.on('close', end);
    request.raw.on('close', end);

    // Subscribed first, then read: a commit between the two is either in the hello seq or poked.
    enqueue(async () => {
      scope = await readScope(database.db, user.id);
      const seq = await currentSeq(database.db);
      lastSentSeq = seq;
      write(`retry: ${RECONNECT_MS}\nevent: hello\ndata: {"seq":${seq}}\n\n`);
    });
  });
}
