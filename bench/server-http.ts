/**
 * Throughput of the real server's hot routes as a share of a bare Fastify JSON route, measured in
 * the same run on the same machine:
 *   reads  — authenticated GET /api/series/{id}/books (session lookup, access check, list)
 *   writes — authenticated PUT /api/chapters/{id} with a ~1,000-word chapter body that differs on
 *            every request, sent with X-Base-Rev = the chapter's current rev (a fast-forward save:
 *            one transaction, seq, row update, revision snapshot, fsync under synchronous=FULL)
 * Targets: reads ≥ 0.5 × bare, writes ≥ 0.25 × bare.
 *
 * autocannon runs here; each server runs in its own child process. Each round measures bare,
 * reads and writes back to back; the verdict uses the medians of the rounds.
 *
 *   tsx server-http.ts [--rounds 3] [--duration 5] [--warmup 2] [--connections 10] [--words 1000]
 *                      [--only bare,reads,writes] [--profile DIR]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type ApiClient, type Row, createStory } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { newestProfile, summariseProfile } from './lib/profile.ts';
import { chapterText, proseParagraphs, seededRandom } from './lib/prose.ts';
import { type Verdict, atLeast, finish, fmt, invalid, median, table } from './lib/report.ts';
import { SERVERS, describeMachine, profileArgs, serverEnv, tempDataDir } from './lib/setting.ts';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    words: { type: 'string', default: '1000' },
    only: { type: 'string', default: 'bare,reads,writes' },
    profile: { type: 'string' },
  },
});
const ROUNDS = Number(flags.rounds);
const DURATION_S = Number(flags.duration);
const WARMUP_S = Number(flags.warmup);
const CONNECTIONS = Number(flags.connections);
const WORDS = Number(flags.words);
const ONLY = new Set(flags.only.split(','));

type TargetName = 'bare' | 'reads' | 'writes';

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

interface Target {
  name: TargetName;
  label: string;
  run(seconds: number): Promise<Sample>;
}

async function load(url: string, seconds: number, requests: autocannon.Request[], headers: Record<string, string> = {}): Promise<Sample> {
  const result = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, duration: seconds, headers, requests });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * PUTs of varied chapter text. Every connection holds one chapter for the length of a request and
 * sends that chapter's latest rev as X-Base-Rev, so each save fast-forwards like an author's save
 * does (ten connections on ONE chapter would send stale bases and measure three-way merges).
 */
function chapterWrites(url: string, client: ApiClient, chapterIds: readonly string[]) {
  const base = proseParagraphs(seededRandom(1), WORDS);
  const variants = proseParagraphs(seededRandom(2), 64 * 15).slice(0, 64);
  let sent = 0;
  const mergeStatuses = new Map<string, number>();

  return {
    mergeStatuses,
    async run(seconds: number): Promise<Sample> {
      // Requests cut off at the end of the last run may have committed unseen revs: start fresh.
      const free: Row[] = [];
      for (const id of chapterIds) free.push(await client.json<Row>('GET', `/api/chapters/${id}`));
      const pool = [...free];
      let borrowed = 0;

      const request: autocannon.Request = {
        method: 'PUT',
        setupRequest(req, context: { chapter?: Row }) {
          // A lost connection can strand a chapter; then share one (its next save may merge).
          const chapter = free.pop() ?? pool[borrowed++ % pool.length]!;
          context.chapter = chapter;
          const n = ++sent;
          const paragraphs = [...base];
          paragraphs[n % paragraphs.length] = `${variants[n % variants.length]} Draft ${n} of this page.`;
          return {
            ...req,
            path: `/api/chapters/${chapter.id}`,
            headers: { ...req.headers, 'content-type': 'application/json', 'x-base-rev': String(chapter.rev) },
            body: JSON.stringify({ content: paragraphs.join('\n\n') }),
          };
        },
        onResponse(status, body, context: { chapter?: Row }) {
          const chapter = context.chapter!;
          if (status === 200) {
            const saved = JSON.parse(body) as Row & { mergeStatus: string };
            chapter.rev = saved.rev;
            mergeStatuses.set(saved.mergeStatus, (mergeStatuses.get(saved.mergeStatus) ?? 0) + 1);
          }
          if (!free.includes(chapter)) free.push(chapter);
        },
      };
      return load(url, seconds, [request], { cookie: client.cookie! });
    },
  };
}

async function main(): Promise<void> {
  console.log(`server-http — ${describeMachine()}`);
  console.log(`${ROUNDS} rounds × ${DURATION_S} s per target after ${WARMUP_S} s warm-up; ${CONNECTIONS} connections, pipelining 1\n`);

  const data = tempDataDir();
  const children: ChildServer[] = [];
  try {
    const [bare, server] = await Promise.all([
      startServer(SERVERS.bare),
      startServer(SERVERS.chronicler, { env: serverEnv(data.dir), nodeArgs: profileArgs(flags.profile) }),
    ]);
    children.push(bare, server);

    const story = await createStory(server.url, 3);
    const chapterIds: string[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const chapter = await story.client.json<Row>('POST', '/api/chapters', {
        bookId: story.bookIds[0],
        title: `Chapter ${i + 1}`,
        content: chapterText(100 + i, WORDS),
      });
      chapterIds.push(chapter.id);
    }
    const booksPath = `/api/series/${story.seriesId}/books`;
    const books = await story.client.json<unknown[]>('GET', booksPath);
    if (books.length !== 3) throw new Error(`expected 3 books, the server listed ${books.length}`);

    const writes = chapterWrites(server.url, story.client, chapterIds);
    const targets: Target[] = (
      [
        { name: 'bare', label: 'bare Fastify GET /hello', run: (s: number) => load(bare.url, s, [{ method: 'GET', path: '/hello' }]) },
        {
          name: 'reads',
          label: 'GET /api/series/{id}/books',
          run: (s: number) => load(server.url, s, [{ method: 'GET', path: booksPath }], { cookie: story.client.cookie! }),
        },
        { name: 'writes', label: `PUT /api/chapters/{id} (${WORDS} words)`, run: writes.run },
      ] satisfies Target[]
    ).filter((t) => ONLY.has(t.name));

    for (const target of targets) await target.run(WARMUP_S);
    writes.mergeStatuses.clear();

    const samples = new Map<TargetName, Sample[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        const sample = await target.run(DURATION_S);
        samples.get(target.name)!.push(sample);
        console.log(`round ${round} ${target.name.padEnd(6)} ${fmt.int(sample.rps).padStart(7)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms`);
      }
    }
    story.client.close();

    const medianOf = (name: TargetName, pick: (s: Sample) => number) => median((samples.get(name) ?? []).map(pick));
    console.log('');
    console.log(
      table(
        ['target', ...Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1} req/s`), 'median req/s', 'p50', 'p99', 'non-2xx', 'errors'],
        targets.map((t) => {
          const list = samples.get(t.name)!;
          return [
            t.label,
            ...list.map((s) => fmt.int(s.rps)),
            fmt.int(medianOf(t.name, (s) => s.rps)),
            `${medianOf(t.name, (s) => s.p50)} ms`,
            `${medianOf(t.name, (s) => s.p99)} ms`,
            list.reduce((n, s) => n + s.non2xx, 0),
            list.reduce((n, s) => n + s.errors, 0),
          ];
        }),
      ),
    );
    if (ONLY.has('writes')) {
      console.log(`\nwrite outcomes (measured rounds): ${[...writes.mergeStatuses].map(([k, v]) => `${k} ${fmt.int(v)}`).join(', ') || 'none'}`);
    }

    const verdicts: Verdict[] = [];
    const bareRps = medianOf('bare', (s) => s.rps);
    for (const [name, target] of [['reads', 0.5], ['writes', 0.25]] as const) {
      if (!ONLY.has(name)) continue;
      const list = samples.get(name)!;
      const failures = list.reduce((n, s) => n + s.non2xx + s.errors, 0);
      if (!ONLY.has('bare')) verdicts.push(invalid(name, 'no bare Fastify baseline in this run (--only)'));
      else if (failures > 0) verdicts.push(invalid(name, `${failures} requests failed (non-2xx or errors); the figure would not be honest`));
      else verdicts.push(atLeast(name, medianOf(name, (s) => s.rps) / bareRps, target, 'bare Fastify'));
    }

    await Promise.all(children.splice(0).map((c) => c.stop()));
    if (flags.profile) {
      const file = newestProfile(flags.profile);
      if (file) console.log(`\n${summariseProfile(file)}`);
    }
    finish(verdicts);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    data.remove();
  }
}

await main();
