/**
 * A soak of many authors (docs/server.md#postgresql): `--authors` simulated authors, each with its
 * live stream (GET /api/sync/events) open on one instance and saving its chapter (`--words` words,
 * X-Base-Rev, Idempotency-Key, as the outbox sends it) every `--interval` seconds on average
 * (uniformly 0.5–1.5×), for `--duration` seconds. A `--shared` share of them collaborate in groups
 * of `--group` on shared series (each member saves its own chapter there; the others' streams hear
 * it). Saves go round-robin over the instances, as a load balancer without sticky sessions sends
 * them, so a save and the streams that hear it are often on different instances. At the defaults
 * (1,000 authors, 4 s) that offers ~250 saves/s; `--authors 50 --duration 20` is a quick look
 * (~2 min).
 *
 * The same soak runs on (`--only`):
 *   sqlite      — one instance on its SQLite file (the baseline);
 *   postgres    — `--instances` instances (2) on one PostgreSQL database;
 *   postgres+1  — one instance more on a fresh database: what one more instance adds.
 * Measured: save p95 (sent → answered) and poke p95 (sent → the poke at or past the save's seq on
 * each stream that must hear it: the author's own, and the collaborators'), split by streams on the
 * save's instance and on another, and the collaborators' alone; per instance: RSS now and at its
 * peak, connections to PostgreSQL and from clients (peaks of samples every 5 s of /proc/PID/fd,
 * lib/proc.ts), server CPU per save; and PostgreSQL's own count of connections by application name.
 * Errors (a save not answered 200, a stream dropped, a poke that never came within 30 s) and lost
 * saves (an acknowledged save's idempotency record missing, or a chapter not holding its last
 * acknowledged save, read back after the instances stopped) must be 0.
 * The ratios (PostgreSQL ÷ SQLite, one instance more ÷ `--instances`) are INFO: no target is set
 * for them. Sign-up is set-up, not measured: the instances run with BENCH_FAST_SIGNUP=1
 * (servers/chronicler.ts).
 *
 * One more instance, on paper: here PostgreSQL, every instance and the load generator share 2
 * cores, so a third instance mostly takes CPU from the database. To estimate a separate database
 * machine, read per save: the instances' CPU (CPU per save × saves/s ÷ cores per instance machine =
 * instances needed), and the database's share, which is the whole machine's CPU during the run less
 * the instances' and the load generator's (`mpstat`/`pidstat -C postgres` beside the run). Writes
 * take the seq-row lock one at a time across instances (db/postgres/write-transactions.ts), so the
 * database's ceiling is about 1 ÷ (one save's lock hold time: its statements and its COMMIT's fsync).
 *
 *   tsx soak.ts [--authors 1000] [--duration 600] [--interval 4] [--words 1000] [--shared 0.2]
 *               [--group 4] [--instances 2] [--only sqlite,postgres,postgres+1]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient, type Row, join, register } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { type PokeStream, openPokeStream } from './lib/poke-stream.ts';
import { type BenchDatabase, connectionsTo, createBenchDatabase } from './lib/postgres.ts';
import { type ProcessFigures, processFigures } from './lib/proc.ts';
import { chapterText } from './lib/prose.ts';
import { type Verdict, finish, fmt, info, invalid, table } from './lib/report.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';
import { openDatabase, upgradePlan } from './browser/repository.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    authors: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '600' },
    interval: { type: 'string', default: '4' },
    words: { type: 'string', default: '1000' },
    shared: { type: 'string', default: '0.2' },
    group: { type: 'string', default: '4' },
    instances: { type: 'string', default: '2' },
    only: { type: 'string', default: 'sqlite,postgres,postgres+1' },
  },
});
const AUTHORS = Number(flags.authors);
const DURATION_MS = Number(flags.duration) * 1000;
const INTERVAL_MS = Number(flags.interval) * 1000;
const WORDS = Number(flags.words);
const GROUP = Number(flags.group);
/** Authors in shared series: whole groups, from the first author on. */
const SHARED_AUTHORS = Math.floor((AUTHORS * Number(flags.shared)) / GROUP) * GROUP;
const INSTANCES = Number(flags.instances);
const ONLY = flags.only.split(',');
const SETUP_CONCURRENCY = 8;
const POKE_TIMEOUT_MS = 30_000;
const SAMPLE_EVERY_MS = 5_000;
const SESSION_SECRET = 'bench-soak-session-secret-0123456789abcdef012345';

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` for 0..count-1, at most `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await work(next++);
  }));
}

/** `register`, again after a second when the server's password work is full (429). */
async function signUpPatiently(url: string, name: string): ReturnType<typeof register> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await register(url, name);
    } catch (error) {
      if (attempt >= 10 || !/answered 429/.test(String(error))) throw error;
      await sleep(1_000);
    }
  }
}

interface Author {
  index: number;
  userId: string;
  email: string;
  /** One client per instance (its own keep-alive socket, as a browser keeps one per host). */
  clients: ApiClient[];
  streamInstance: number;
  stream: PokeStream | null;
  chapterId: string;
  rev: number;
  /** Whose streams hear this author's saves: its own and its collaborators'. */
  hearers: Author[];
  lastAcked: string | null;
}

interface SoakResult {
  label: string;
  instances: number;
  saves: number;
  saveMs: number[];
  poke: { local: number[]; cross: number[]; collaborator: number[]; all: number[] };
  errors: Map<string, number>;
  lost: number;
  figures: (ProcessFigures & { cpuPerSaveMicros: number })[];
  databaseConnections: string;
}

async function soak(label: string, storage: 'sqlite' | 'postgres', instances: number): Promise<SoakResult> {
  console.log(`\n— ${label}: ${instances} instance${instances > 1 ? 's' : ''}, ${AUTHORS} authors (${SHARED_AUTHORS} in shared series of ${GROUP}), ${DURATION_MS / 1000} s —`);
  const dirs = Array.from({ length: instances }, () => tempDataDir());
  const database: BenchDatabase | null = storage === 'postgres' ? await createBenchDatabase('soak') : null;
  const location = database ? database.url : path.join(dirs[0]!.dir, 'chronicler.db');
  const servers: ChildServer[] = [];
  const result: SoakResult = { label, instances, saves: 0, saveMs: [], poke: { local: [], cross: [], collaborator: [], all: [] }, errors: new Map(), lost: 0, figures: [], databaseConnections: '' };
  const error = (kind: string) => void result.errors.set(kind, (result.errors.get(kind) ?? 0) + 1);
  const authors: Author[] = [];
  const acked = new Set<string>();
  const run = `${process.pid}-${Date.now()}`;
  try {
    const env = (dir: string) => ({ ...serverEnv(dir), BENCH_FAST_SIGNUP: '1', SESSION_SECRET, ...(database ? { DATABASE_URL: database.url } : {}) });
    servers.push(...(await Promise.all(dirs.map((dir) => startServer(SERVERS.chronicler, { env: env(dir.dir) })))));
    const urls = servers.map((s) => s.url);

    const setupStart = performance.now();
    // The server hashes at most two passwords at once per address (http/unread-bodies.ts): two sign-ups per instance at a time.
    await inParallel(AUTHORS, 2 * instances, async (i) => {
      const made = await signUpPatiently(urls[i % instances]!, `soak${i}`);
      const clients = urls.map((url) => Object.assign(new ApiClient(url), { cookie: made.client.cookie }));
      made.client.close();
      authors[i] = { index: i, userId: made.userId, email: made.email, clients, streamInstance: i % instances, stream: null, chapterId: '', rev: 0, hearers: [], lastAcked: null };
    });
    const owners = authors.filter((a) => a.index < SHARED_AUTHORS && a.index % GROUP === 0);
    const handle = await openDatabase(location, { exclusiveProcess: false, backgroundCheckpoints: false });
    for (const owner of owners) await upgradePlan(handle.db, owner.userId);
    await handle.close();
    const books = new Map<number, string>();
    await inParallel(AUTHORS, SETUP_CONCURRENCY, async (i) => {
      const author = authors[i]!;
      const client = author.clients[i % instances]!;
      if (i >= SHARED_AUTHORS) {
        const series = await client.json<Row>('POST', '/api/series', { title: `Soak ${i}`, totalBooks: 1 });
        books.set(i, (await client.json<Row>('POST', '/api/books', { seriesId: series.id, title: 'Book One' })).id);
      } else if (i % GROUP === 0) {
        const series = await client.json<Row>('POST', '/api/collaboration/series', { name: `Shared ${i}`, description: 'A soak group' });
        for (let m = i + 1; m < i + GROUP; m++) await join(client, { client: authors[m]!.clients[m % instances]!, email: authors[m]!.email }, series.id, 'editor');
        books.set(i, (await client.json<Row>('POST', '/api/books', { seriesId: series.id, title: 'Book One' })).id);
      }
    });
    await inParallel(AUTHORS, SETUP_CONCURRENCY, async (i) => {
      const author = authors[i]!;
      const bookId = books.get(i < SHARED_AUTHORS ? i - (i % GROUP) : i)!;
      const chapter = await author.clients[i % instances]!.json<Row>('POST', '/api/chapters', { bookId, title: `Chapter of ${i}`, content: chapterText(i, WORDS) });
      author.chapterId = chapter.id;
      author.rev = chapter.rev;
      const group = i < SHARED_AUTHORS ? authors.slice(i - (i % GROUP), i - (i % GROUP) + GROUP) : [author];
      author.hearers = [author, ...group.filter((a) => a !== author)];
    });
    await inParallel(AUTHORS, SETUP_CONCURRENCY * 4, async (i) => {
      const author = authors[i]!;
      author.stream = await openPokeStream(new URL('/api/sync/events', urls[author.streamInstance]).href, author.clients[0]!.cookie);
    });
    console.log(`set up in ${fmt.ms(performance.now() - setupStart)}; ${AUTHORS} streams open`);

    const cpuBefore = await Promise.all(servers.map((s) => s.cpuMicros()));
    const peaks = servers.map(() => ({ databaseConnections: 0, httpConnections: 0 }));
    const sample = () =>
      servers.forEach((s, n) => {
        const figures = processFigures(s.pid, Number(new URL(s.url).port));
        peaks[n]!.databaseConnections = Math.max(peaks[n]!.databaseConnections, figures.databaseConnections);
        peaks[n]!.httpConnections = Math.max(peaks[n]!.httpConnections, figures.httpConnections);
      });
    const sampler = setInterval(sample, SAMPLE_EVERY_MS);
    const pokesPending: Promise<void>[] = [];
    const end = performance.now() + DURATION_MS;
    await Promise.all(
      authors.map(async (author) => {
        const base = chapterText(author.index, WORDS);
        for (let k = 1; ; k++) {
          await sleep(INTERVAL_MS * (k === 1 ? Math.random() : 0.5 + Math.random()));
          if (performance.now() >= end) return;
          const instance = (author.index + k) % instances;
          const content = `soak ${author.index} save ${k}\n\n${base}`;
          const key = `soak-${run}-${author.index}-${k}`;
          const start = performance.now();
          let status = 0;
          let rev = 0;
          try {
            const res = await author.clients[instance]!.request('PUT', `/api/chapters/${author.chapterId}`, { content }, { 'x-base-rev': String(author.rev), 'idempotency-key': key });
            status = res.status;
            if (status === 200) rev = (JSON.parse(res.body.toString('utf8')) as Row & { mergeStatus: string }).rev;
          } catch {
            status = -1;
          }
          if (status !== 200) {
            error(status === -1 ? 'save: network error' : `save: ${status}`);
            continue;
          }
          result.saveMs.push(performance.now() - start);
          result.saves += 1;
          acked.add(key);
          author.rev = rev;
          author.lastAcked = content;
          for (const hearer of author.hearers) {
            pokesPending.push(
              hearer.stream!.arrival(rev, POKE_TIMEOUT_MS).then((at) => {
                if (at === null) return error('poke never came');
                const ms = at - start;
                result.poke.all.push(ms);
                (hearer.streamInstance === instance ? result.poke.local : result.poke.cross).push(ms);
                if (hearer !== author) result.poke.collaborator.push(ms);
              }),
            );
          }
        }
      }),
    );
    await Promise.all(pokesPending);
    clearInterval(sampler);
    sample();
    const dropped = authors.filter((a) => a.stream!.ended).length;
    for (let d = 0; d < dropped; d++) error('stream dropped');
    const cpuAfter = await Promise.all(servers.map((s) => s.cpuMicros()));
    result.figures = servers.map((s, n) => ({
      ...processFigures(s.pid, Number(new URL(s.url).port)),
      ...peaks[n]!,
      cpuPerSaveMicros: (cpuAfter[n]! - cpuBefore[n]!) / Math.max(1, result.saves / instances),
    }));
    if (database) result.databaseConnections = [...(await connectionsTo(database.name))].map(([app, n]) => `${app} ${n}`).join(', ');
    for (const author of authors) author.stream!.close();
    for (const author of authors) for (const client of author.clients) client.close();
    await Promise.all(servers.map((s) => s.stop()));
    servers.length = 0;

    // Every acknowledged save must be in the database, read back after the instances stopped.
    const readBack = await openDatabase(location, { exclusiveProcess: false, backgroundCheckpoints: false });
    try {
      const keys = await readBack.db.selectFrom('idempotencyKeys').select('key').where('key', 'like', `soak-${run}-%`).execute();
      const stored = new Set(keys.map((k) => k.key));
      for (const key of acked) if (!stored.has(key)) result.lost += 1;
      const chapters = await readBack.db.selectFrom('chapters').select(['id', 'content', 'rev']).where('id', 'in', authors.map((a) => a.chapterId)).execute();
      const byId = new Map(chapters.map((c) => [c.id, c]));
      for (const author of authors) {
        const row = byId.get(author.chapterId);
        if (author.lastAcked !== null && (row?.content !== author.lastAcked || Number(row.rev) !== author.rev)) result.lost += 1;
      }
    } finally {
      await readBack.close();
    }
    return result;
  } finally {
    for (const author of authors) {
      author?.stream?.close();
      for (const client of author?.clients ?? []) client.close();
    }
    await Promise.all(servers.map((s) => s.stop()));
    for (const dir of dirs) dir.remove();
    await database?.drop();
  }
}

function report(results: readonly SoakResult[]): Verdict[] {
  const p95 = (values: readonly number[]) => (values.length ? fmt.ms(percentile(values, 0.95)) : '—');
  console.log(
    '\n' +
      table(
        ['run', 'saves', 'saves/s', 'save p50', 'save p95', 'poke p95', 'same instance', 'other instance', 'collaborator', 'errors', 'lost'],
        results.map((r) => [
          r.label,
          fmt.int(r.saves),
          (r.saves / (DURATION_MS / 1000)).toFixed(1),
          fmt.ms(percentile(r.saveMs, 0.5)),
          p95(r.saveMs),
          p95(r.poke.all),
          p95(r.poke.local),
          p95(r.poke.cross),
          p95(r.poke.collaborator),
          [...r.errors.values()].reduce((a, b) => a + b, 0),
          r.lost,
        ]),
      ),
  );
  console.log(
    '\n' +
      table(
        ['run', 'instance', 'RSS now', 'RSS peak', 'PostgreSQL connections (peak)', 'client connections (peak)', 'CPU per save'],
        results.flatMap((r) =>
          r.figures.map((f, n) => [r.label, String(n + 1), fmt.mb(f.rssBytes), fmt.mb(f.peakRssBytes), String(f.databaseConnections), String(f.httpConnections), `${fmt.int(f.cpuPerSaveMicros)} µs`]),
        ),
      ),
  );
  for (const r of results) if (r.databaseConnections) console.log(`${r.label}: PostgreSQL's own count at the end: ${r.databaseConnections}`);
  const verdicts: Verdict[] = results.map((r) => {
    const errors = [...r.errors].map(([kind, n]) => `${n} × ${kind}`).join(', ');
    return errors || r.lost > 0
      ? invalid(`soak ${r.label}`, `${errors || 'no errors'}; ${r.lost} acknowledged saves lost`)
      : { pass: true, line: `PASS soak ${r.label}: ${fmt.int(r.saves)} saves, no error, no lost save` };
  });
  const find = (label: string) => results.find((r) => r.label === label);
  const sqlite = find('sqlite');
  const postgres = find('postgres');
  const more = find('postgres+1');
  const ratio = (a: number[], b: number[]) => (percentile(a, 0.95) / percentile(b, 0.95)).toFixed(2);
  if (sqlite && postgres) {
    verdicts.push(info(`PostgreSQL on ${postgres.instances} instances ÷ SQLite on one: save p95 ${ratio(postgres.saveMs, sqlite.saveMs)}×, poke p95 ${ratio(postgres.poke.all, sqlite.poke.all)}×`));
  }
  if (postgres && more) {
    verdicts.push(
      info(
        `one more instance (${more.instances} ÷ ${postgres.instances}): save p95 ${ratio(more.saveMs, postgres.saveMs)}×, poke p95 ${ratio(more.poke.all, postgres.poke.all)}×, ` +
          `saves/s ${(more.saves / postgres.saves).toFixed(2)}× (the offered load is the same; the database shares this machine's cores)`,
      ),
    );
  }
  return verdicts;
}

async function main(): Promise<void> {
  console.log(`soak — ${describeMachine()}`);
  console.log(`${AUTHORS} authors, a ${WORDS}-word save every ~${INTERVAL_MS / 1000} s each (${(AUTHORS / (INTERVAL_MS / 1000)).toFixed(0)} saves/s offered), ${DURATION_MS / 1000} s per run`);
  console.log(`${describeLoad()} at start`);
  const results: SoakResult[] = [];
  for (const label of ONLY) {
    if (label === 'sqlite') results.push(await soak(label, 'sqlite', 1));
    else if (label === 'postgres') results.push(await soak(label, 'postgres', INSTANCES));
    else if (label === 'postgres+1') results.push(await soak(label, 'postgres', INSTANCES + 1));
    else throw new Error(`--only: unknown run ${label} (sqlite, postgres, postgres+1)`);
    console.log(describeLoad());
  }
  const verdicts = report(results);
  console.log(`\n${describeLoad()} at end`);
  finish(verdicts);
}

await main();
