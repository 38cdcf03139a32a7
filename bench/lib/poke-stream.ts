/**
 * A live stream held open as an app holds it (GET /api/sync/events, or the bare relay's /events),
 * for the poke benches (postgres.ts, soak.ts): it notes when each poke arrived (unnamed events,
 * `data: {"seq":N…}`; hello, presence and invites are named and skipped), and answers when the
 * first poke at or past a seq came.
 */
import http from 'node:http';

export interface PokeStream {
  /** performance.now() of the first poke with a seq ≥ `seq`, or null after `timeoutMs` without one. */
  arrival(seq: number, timeoutMs: number): Promise<number | null>;
  /** Whether the server ended the stream (a dropped stream is an error in a soak). */
  readonly ended: boolean;
  close(): void;
}

/** Kept per stream: enough for every save in flight to find its poke. */
const KEPT_POKES = 256;

/** Opens the stream and resolves once its first event (hello) came. */
export function openPokeStream(url: string, cookie: string | null): Promise<PokeStream> {
  const pokes: { seq: number; at: number }[] = [];
  const waiters = new Set<{ seq: number; resolve: (at: number | null) => void }>();
  let ended = false;
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`the event stream answered ${res.statusCode}`));
      }
      let buffer = '';
      let greeted = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          if (!greeted) {
            greeted = true;
            resolve(stream);
          }
          if (block.startsWith(':') || /^event:/m.test(block)) continue;
          const seq = Number(/^data: \{"seq":(\d+)/m.exec(block)?.[1]);
          if (!seq) continue;
          pokes.push({ seq, at });
          if (pokes.length > KEPT_POKES) pokes.shift();
          for (const waiter of waiters) {
            if (seq < waiter.seq) continue;
            waiters.delete(waiter);
            waiter.resolve(at);
          }
        }
      });
      res.on('close', () => {
        ended = true;
        for (const waiter of waiters) waiter.resolve(null);
        waiters.clear();
      });
    });
    request.on('error', (error) => {
      ended = true;
      reject(error);
    });
    const stream: PokeStream = {
      arrival(seq, timeoutMs) {
        const seen = pokes.find((p) => p.seq >= seq);
        if (seen) return Promise.resolve(seen.at);
        if (ended) return Promise.resolve(null);
        return new Promise((done) => {
          const waiter = {
            seq,
            resolve: (at: number | null) => {
              clearTimeout(timer);
              done(at);
            },
          };
          const timer = setTimeout(() => {
            waiters.delete(waiter);
            done(null);
          }, timeoutMs);
          waiters.add(waiter);
        });
      },
      get ended() {
        return ended;
      },
      close: () => request.destroy(),
    };
  });
}
