/**
 * Load against a server child with autocannon, and the save workload the write benches send
 * (server-http.ts, postgres.ts): a 1,000-word chapter that differs on every request, sent as the
 * web client's outbox sends it (X-Base-Rev = the chapter's current rev, a fresh Idempotency-Key).
 */
import autocannon from 'autocannon';
import type { ApiClient, Row } from './api.ts';
import type { ChildServer } from './child.ts';
import { proseParagraphs, seededRandom } from './prose.ts';

export interface LoadOptions {
  connections: number;
}

export interface SaveOptions extends LoadOptions {
  words: number;
  idempotencyKeys: boolean;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** The serving process's CPU time (user + system) per request, in µs. */
  cpuPerRequest: number;
  non2xx: number;
  errors: number;
}

export async function load(
  server: ChildServer,
  seconds: number,
  requests: autocannon.Request[],
  headers: Record<string, string>,
  { connections }: LoadOptions,
): Promise<Sample> {
  const cpuBefore = await server.cpuMicros();
  const result = await autocannon({ url: server.url, connections, pipelining: 1, duration: seconds, headers, requests });
  const cpu = (await server.cpuMicros()) - cpuBefore;
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    cpuPerRequest: cpu / Math.max(1, result.requests.total),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * PUTs of varied chapter text. Every connection holds one chapter for the length of a request and
 * sends that chapter's latest rev as X-Base-Rev, so each save fast-forwards like an author's save
 * does (ten connections on ONE chapter would send stale bases and measure three-way merges).
 */
export function chapterWrites(server: ChildServer, client: ApiClient, chapterIds: readonly string[], options: SaveOptions) {
  const base = proseParagraphs(seededRandom(1), options.words);
  const variants = proseParagraphs(seededRandom(2), 64 * 15).slice(0, 64);
  let sent = 0;
  const run = `${process.pid}-${Date.now()}`;
  const mergeStatuses = new Map<string, number>();

  return {
    mergeStatuses,
    body: (n: number) => {
      const paragraphs = [...base];
      paragraphs[n % paragraphs.length] = `${variants[n % variants.length]} Draft ${n} of this page.`;
      return JSON.stringify({ content: paragraphs.join('\n\n') });
    },
    async run(seconds: number): Promise<Sample> {
      // Requests cut off at the end of the last run may have committed unseen revs: start fresh.
      const free: Row[] = [];
      for (const id of chapterIds) free.push(await client.json<Row>('GET', `/api/chapters/${id}`));
      const pool = [...free];
      let shared = 0;
      const body = this.body;

      const request: autocannon.Request = {
        method: 'PUT',
        setupRequest(req, context: { chapter?: Row }) {
          // A lost connection can strand a chapter; then share one (its next save may merge).
          const chapter = free.pop() ?? pool[shared++ % pool.length]!;
          context.chapter = chapter;
          const n = ++sent;
          return {
            ...req,
            path: `/api/chapters/${chapter.id}`,
            headers: {
              ...req.headers,
              'content-type': 'application/json',
              'x-base-rev': String(chapter.rev),
              ...(options.idempotencyKeys ? { 'idempotency-key': `bench-${run}-${n}` } : {}),
            },
            body: body(n),
          };
        },
        onResponse(status, responseBody, context: { chapter?: Row }) {
          const chapter = context.chapter!;
          if (status === 200) {
            const saved = JSON.parse(responseBody) as Row & { mergeStatus: string };
            chapter.rev = saved.rev;
            mergeStatuses.set(saved.mergeStatus, (mergeStatuses.get(saved.mergeStatus) ?? 0) + 1);
          }
          if (!free.includes(chapter)) free.push(chapter);
        },
      };
      return load(server, seconds, [request], { cookie: client.cookie! }, options);
    },
  };
}
