/**
 * The server on PostgreSQL (docs/server.md#postgresql), against baselines measured in the same run:
 *   reads  — authenticated GET /api/series/{id}/books on an instance with DATABASE_URL, req/s
 *            ÷ bare Fastify GET /hello (as server-http.ts). Target ≥ 0.5.
 *   writes — PUT /api/chapters/{id} (1,000 words, X-Base-Rev, Idempotency-Key, as server-http.ts),
 *            req/s ÷ the save's own SQL (captured from the server on PostgreSQL) replayed through
 *            `pg` by as many clients as there are connections, no HTTP, no server code
 *            (lib/save-statements-postgres.ts: from BEGIN and the seq-row lock to COMMIT, each
 *            client on its own chapter and each save its own transaction, sent parameterised and
 *            unnamed as the server's driver sends them). Target ≥ 0.5.
 *   poke   — across instances: a member's live stream held on instance B; the owner saves a
 *            1,000-word chapter of their shared series on instance A; timed from the save sent to
 *            the poke on B's stream. Baseline, interleaved: the bare relay (servers/bare-relay.ts)
 *            — the same PUT body to a bare Fastify A that INSERTs it (one durable commit) and
 *            NOTIFYs, heard by a bare Fastify B that LISTENs and writes an SSE frame: the path with
 *            no Chronicler code. p95 ÷ p95, target ≤ 5×. The bare NOTIFY→LISTEN round trip of
 *            `pg` alone is printed beside it, as INFO: it is the floor of any cross-instance
 *            announcement, but not a fair baseline for a path that also commits and answers HTTP.
 *   feed   — the 2,000-chapter series of changes-bootstrap.ts (3 books, 1,000 words each) walked
 *            from since=0 on instance A, ÷ the same rows read with SELECT * through `pg` and
 *            JSON.stringify'd. Target ≤ 3×.
 * Two instances share one database, started at once (their migrations take turns behind a lock).
 * Each run creates its own databases on BENCH_DATABASE_URL's server and drops them (lib/postgres.ts;
 * default postgres://chronicler:chronicler@127.0.0.1:5432/chronicler_test, whose role must be
 * allowed to create databases; a crashed run's databases are dropped by the next). PostgreSQL
 * shares the machine's cores with the servers and the load generator unless it runs elsewhere:
 * record where it ran with the figures.
 *
 *   tsx postgres.ts [--rounds 3] [--duration 5] [--warmup 1.5] [--connections 10] [--words 1000]
 *                   [--edits 200] [--chapters 2000] [--only reads,writes,poke,feed]
 */
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { newId } from '@chronicler/schema';
import { ApiClient, type Row, createStory, join, register } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { feedChecker, SYNCED_TABLES, walkFeed } from './lib/feed.ts';
import { type Sample, chapterWrites, load } from './lib/http-load.ts';
import { openPokeStream } from './lib/poke-stream.ts';
import { type BenchDatabase, connectTo, createBenchDatabase } from './lib/postgres.ts';
import { chapterText } from './lib/prose.ts';
import { type Verdict, atLeast, atMost, finish, fmt, info, invalid, median, table } from './lib/report.ts';
import { capturePostgresSave, postgresStatementFloor } from './lib/save-statements-postgres.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';
import { type RowWrite, applyWrites, openDatabase } from './browser/repository.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1.5' },
    connections: { type: 'string', default: '10' },
    words: { type: 'string', default: '1000' },
    edits: { type: 'string', default: '200' },
    chapters: { type: 'string', default: '2000' },
    only: { type: 'string', default: 'reads,writes,poke,feed' },
  },
});
const ROUNDS = Number(flags.rounds);
const DURATION_S = Number(flags.duration);
const WARMUP_S = Number(flags.warmup);
const CONNECTIONS = Number(flags.connections);
const WORDS = Number(flags.words);
const EDITS = Number(flags.edits);
const CHAPTERS = Number(flags.chapters);
const ONLY = new Set(flags.only.split(','));
const LOAD = { connections: CONNECTIONS };
const ARRIVAL_TIMEOUT_MS = 15_000;
/** Both instances must accept each other's session cookies (docs/server.md: SESSION_SECRET must match). */
const SESSION_SECRET = 'bench-postgres-session-secret-0123456789abcdef';

const p95 = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
};
const failuresOf = (samples: readonly Sample[]) => samples.reduce((n, s) => n + s.non2xx + s.errors, 0);

async function readsAndWrites(bare: ChildServer, server: ChildServer, verdicts: Verdict[]): Promise<void> {
  const story = await createStory(server.url, 3);
  const chapterIds: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const chapter = await story.client.json<Row>('POST', '/api/chapters', { bookId: story.bookIds[0], title: `Chapter ${i + 1}`, content: chapterText(100 + i, WORDS) });
    chapterIds.push(chapter.id);
  }
  const booksPath = `/api/series/${story.seriesId}/books`;
  const cookie = story.client.cookie!;
  const writes = chapterWrites(server, story.client, chapterIds, { ...LOAD, words: WORDS, idempotencyKeys: true });
  const floorTexts = Array.from({ length: 128 }, (_, n) => (JSON.parse(writes.body(n)) as { content: string }).content);
  const floorText = (n: number) => floorTexts[n % floorTexts.length]!;
  const capture = ONLY.has('writes') ? await capturePostgresSave(floorText, CONNECTIONS) : null;
  try {
    const run = {
      bare: (s: number) => load(bare, s, [{ method: 'GET', path: '/hello' }], {}, LOAD),
      reads: (s: number) => load(server, s, [{ method: 'GET', path: booksPath }], { cookie }, LOAD),
      writes: (s: number) => writes.run(s),
    };
    const names = (['bare', 'reads', 'writes'] as const).filter((n) => n === 'bare' ? ONLY.has('reads') : ONLY.has(n));
    for (const name of names) await run[name](WARMUP_S);
    writes.mergeStatuses.clear();
    const samples = { bare: [] as Sample[], reads: [] as Sample[], writes: [] as Sample[] };
    const floors: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const name of names) {
        const s = await run[name](DURATION_S);
        samples[name].push(s);
        console.log(`round ${round} ${name.padEnd(6)} ${fmt.int(s.rps).padStart(7)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms  server CPU ${fmt.int(s.cpuPerRequest)} µs/request`);
      }
      if (capture) {
        floors.push(await postgresStatementFloor(capture, floorText, DURATION_S, CONNECTIONS));
        console.log(`round ${round} pg floor ${fmt.int(floors.at(-1)!)} saves/s (the save's ${capture.steps.length} statements, ${CONNECTIONS} clients, no HTTP)`);
      }
    }
    const rps = (list: readonly Sample[]) => median(list.map((s) => s.rps));
    console.log(
      '\n' +
        table(
          ['target', 'median req/s', 'p99', 'CPU/request', 'failed'],
          names.map((n) => [n, fmt.int(rps(samples[n])), `${median(samples[n].map((s) => s.p99))} ms`, `${fmt.int(median(samples[n].map((s) => s.cpuPerRequest)))} µs`, failuresOf(samples[n])]),
        ),
    );
    if (ONLY.has('reads')) {
      verdicts.push(
        failuresOf(samples.reads) > 0
          ? invalid('reads (PostgreSQL)', `${failuresOf(samples.reads)} requests failed; the figure would not be honest`)
          : atLeast('reads (PostgreSQL)', rps(samples.reads) / rps(samples.bare), 0.5, 'bare Fastify'),
      );
    }
    if (ONLY.has('writes')) {
      console.log(`write outcomes: ${[...writes.mergeStatuses].map(([k, v]) => `${k} ${fmt.int(v)}`).join(', ') || 'none'}`);
      verdicts.push(
        failuresOf(samples.writes) > 0
          ? invalid('writes (PostgreSQL)', `${failuresOf(samples.writes)} requests failed; the figure would not be honest`)
          : atLeast('writes (PostgreSQL)', rps(samples.writes) / median(floors), 0.5, `the save's own statements through pg, no HTTP (${fmt.int(median(floors))} saves/s)`),
      );
    }
  } finally {
    story.client.close();
    await capture?.database.drop();
  }
}

/** Time from `pg_notify` sent on one connection to the notification on another (LISTEN), in ms. */
async function bareNotifyRoundTrip(url: string, times: number): Promise<number[]> {
  const [sender, listener] = [await connectTo(url), await connectTo(url)];
  try {
    await listener.query('listen bench_rtt');
    const samples: number[] = [];
    for (let i = 0; i < times; i++) {
      const heard = new Promise<number>((resolve) => listener.once('notification', () => resolve(performance.now())));
      const start = performance.now();
      await sender.query(`select pg_notify('bench_rtt', $1)`, [String(i)]);
      samples.push((await heard) - start);
    }
    return samples;
  } finally {
    await Promise.all([sender.end(), listener.end()]);
  }
}

async function poke(a: ChildServer, b: ChildServer, database: BenchDatabase, verdicts: Verdict[]): Promise<void> {
  const owner = await register(a.url, 'owner');
  const admin = await connectTo(database.url);
  await admin.query(`update users set plan = 'loremaster' where id = $1`, [owner.userId]);
  await admin.query('create table relay (seq bigserial primary key, content text not null)');
  await admin.end();
  const series = await owner.client.json<Row>('POST', '/api/collaboration/series', { name: 'The Shared Saga', description: 'Two instances, one saga.' });
  const book = await owner.client.json<Row>('POST', '/api/books', { seriesId: series.id, title: 'Book One' });
  const base = chapterText(1, WORDS);
  const chapter = await owner.client.json<Row>('POST', '/api/chapters', { bookId: book.id, title: 'Together', content: base });
  const member = await register(a.url, 'member');
  await join(owner.client, member, series.id, 'editor');

  const relayEnv = { LOG_LEVEL: 'silent', RELAY_DATABASE_URL: database.url };
  const [relayA, relayB] = await Promise.all([startServer(SERVERS.bareRelay, { env: relayEnv }), startServer(SERVERS.bareRelay, { env: relayEnv })]);
  const relayClient = new ApiClient(relayA.url);
  try {
    const memberStream = await openPokeStream(new URL('/api/sync/events', b.url).href, member.client.cookie);
    const relayStream = await openPokeStream(new URL('/events', relayB.url).href, null);
    const live: number[] = [];
    const bare: number[] = [];
    let missed = 0;
    let rev = chapter.rev;
    for (let i = 0; i <= EDITS; i++) {
      const content = `edit ${i}\n\n${base}`;
      const start = performance.now();
      const saved = await owner.client.json<Row>('PUT', `/api/chapters/${chapter.id}`, { content }, { 'x-base-rev': String(rev) });
      rev = saved.rev;
      const seen = await memberStream.arrival(saved.rev, ARRIVAL_TIMEOUT_MS);
      const relayStart = performance.now();
      const relayed = await relayClient.json<Row>('PUT', `/relay/${chapter.id}`, { content });
      const relaySeen = await relayStream.arrival(relayed.rev, ARRIVAL_TIMEOUT_MS);
      if (i === 0) continue; // warm-up
      if (seen === null || relaySeen === null) missed += 1;
      live.push(seen === null ? ARRIVAL_TIMEOUT_MS : seen - start);
      bare.push(relaySeen === null ? ARRIVAL_TIMEOUT_MS : relaySeen - relayStart);
    }
    memberStream.close();
    relayStream.close();
    const rtt = await bareNotifyRoundTrip(database.url, EDITS);
    console.log(
      '\n' +
        table(
          ['path', 'median', 'p95'],
          [
            ['save on A → poke on B (Chronicler)', fmt.ms(median(live)), fmt.ms(p95(live))],
            ['bare relay: PUT on A → INSERT, NOTIFY → SSE on B', fmt.ms(median(bare)), fmt.ms(p95(bare))],
            ['bare pg NOTIFY → LISTEN', fmt.ms(median(rtt)), fmt.ms(p95(rtt))],
          ],
        ),
    );
    verdicts.push(
      missed > 0
        ? invalid('poke across instances', `${missed} of ${EDITS} pokes never arrived`)
        : atMost('poke across instances', p95(live) / p95(bare), 5, 'the bare relay p95 (HTTP PUT, INSERT, NOTIFY, LISTEN, SSE)'),
      info(`poke across instances p95 ${fmt.ms(p95(live))} = ${(p95(live) / p95(rtt)).toFixed(1)}× the bare pg NOTIFY→LISTEN p95 (${fmt.ms(p95(rtt))})`),
    );
  } finally {
    relayClient.close();
    await Promise.all([relayA.stop(), relayB.stop()]);
  }
}

async function feed(server: ChildServer, database: BenchDatabase, verdicts: Verdict[]): Promise<void> {
  const BOOKS = 3;
  const story = await createStory(server.url, BOOKS);
  // Seeded through the server's own repository code (a seq per row, its derived fields and revision), in one commit.
  const storage = await openDatabase(database.url, { exclusiveProcess: false });
  const perBook = Math.ceil(CHAPTERS / BOOKS);
  const writes: RowWrite[] = Array.from({ length: CHAPTERS }, (_, i) => ({
    op: 'insert',
    kind: 'chapters',
    values: { id: newId(), seriesId: story.seriesId, bookId: story.bookIds[Math.floor(i / perBook)]!, title: `Chapter ${i + 1}`, content: chapterText(i + 1, WORDS), position: (i % perBook) + 1, status: 'in_progress' },
  }));
  const seedStart = performance.now();
  await applyWrites(storage.db, story.userId, writes);
  await storage.close();
  console.log(`\nseeded ${CHAPTERS} chapters in ${fmt.ms(performance.now() - seedStart)}`);

  const checker = feedChecker();
  await walkFeed(story.client, { check: checker.check });
  const { seen } = checker;
  const complete = seen.books.size === BOOKS && seen.chapters.size === CHAPTERS && seen.words === CHAPTERS * WORDS;
  const client = await connectTo(database.url);
  const readAndSerialise = async (reader: pg.Client) => {
    const start = performance.now();
    const rows: Record<string, unknown[]> = {};
    for (const [name, column] of SYNCED_TABLES) rows[name] = (await reader.query(`select * from ${name} where ${column} = $1`, [story.seriesId])).rows;
    const bytes = Buffer.byteLength(JSON.stringify(rows));
    return { ms: performance.now() - start, bytes };
  };
  try {
    await readAndSerialise(client);
    const baseline: number[] = [];
    const walks: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      baseline.push((await readAndSerialise(client)).ms);
      walks.push((await walkFeed(story.client)).ms);
      console.log(`round ${round} feed walk ${fmt.ms(walks.at(-1)!)}, pg read+stringify ${fmt.ms(baseline.at(-1)!)}`);
    }
    verdicts.push(
      complete
        ? atMost('feed bootstrap (PostgreSQL)', median(walks) / median(baseline), 3, 'SELECT * through pg and JSON.stringify')
        : invalid('feed bootstrap (PostgreSQL)', 'the feed did not deliver every row exactly once; the timing would not be honest'),
    );
  } finally {
    await client.end();
    story.client.close();
  }
}

async function main(): Promise<void> {
  console.log(`postgres — ${describeMachine()}`);
  console.log(`${ROUNDS} rounds × ${DURATION_S} s; ${CONNECTIONS} connections; ${EDITS} edits; ${CHAPTERS} chapters × ${WORDS} words`);
  console.log(`${describeLoad()} at start\n`);
  const database = await createBenchDatabase('pg');
  const dirs = [tempDataDir(), tempDataDir()];
  const children: ChildServer[] = [];
  try {
    const env = (dir: string) => ({ ...serverEnv(dir), DATABASE_URL: database.url, SESSION_SECRET });
    // Two instances on one database, started at once (their migrations take turns behind a lock).
    const [bare, a, b] = await Promise.all([startServer(SERVERS.bare), startServer(SERVERS.chronicler, { env: env(dirs[0]!.dir) }), startServer(SERVERS.chronicler, { env: env(dirs[1]!.dir) })]);
    children.push(bare, a, b);
    const verdicts: Verdict[] = [];
    if (ONLY.has('reads') || ONLY.has('writes')) await readsAndWrites(bare, a, verdicts);
    if (ONLY.has('poke')) await poke(a, b, database, verdicts);
    if (ONLY.has('feed')) await feed(a, database, verdicts);
    console.log(`\n${describeLoad()} at end`);
    finish(verdicts);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    for (const dir of dirs) dir.remove();
    await database.drop();
  }
}

await main();
