/**
 * Throughput of the real server's hot routes as a share of a bare Fastify JSON route, measured in
 * the same run on the same machine:
 *   reads  — authenticated GET /api/series/{id}/books (session lookup, access check, list)
 *   writes — authenticated PUT /api/chapters/{id} with a ~1,000-word chapter body that differs on
 *            every request, sent as the web client's outbox sends it: X-Base-Rev = the chapter's
 *            current rev and a fresh Idempotency-Key (a fast-forward save: one transaction, seq,
 *            row update, revision snapshot, idempotency record, fsync under synchronous=FULL)
 * Targets: reads ≥ 0.5 × bare; writes ≥ 0.6 × the serial write floor 1 / (1/bare-writes + 1/own
 * statements): bare-writes is the same PUT on a bare Fastify route with no storage (the save's
 * HTTP), own statements the save's SQL captured from the server and replayed as many saves per
 * transaction as there are connections (lib/save-statements.ts). A save pays both, one after the
 * other on one thread, so their serial sum is the floor a save can reach.
 *
 * autocannon runs here (`--connections` connections, rounds of `--duration` seconds after
 * `--warmup`); each server runs in its own child process, on a file database in WAL with
 * synchronous=FULL. Each round measures bare, bare-writes, reads and writes back to back;
 * verdicts use the medians of the rounds. Two figures put the ratios in context: the server's CPU
 * time per request (less disturbed by other load on the machine than throughput), and the commit
 * floor — the same bytes a save writes, committed straight through better-sqlite3 with the
 * production pragmas on the same disk, one per transaction and as many per transaction as there
 * are connections (the four-write grouped floor writes were first judged by; it leaves out the
 * indexes, the writing event and day that a save also writes).
 *
 *   tsx server-http.ts [--rounds 3] [--duration 5] [--warmup 1.5] [--connections 10] [--words 1000]
 *                      [--only bare,bare-writes,reads,writes] [--idempotency-key on|off]
 *                      [--profile DIR] [--readable]
 * --profile DIR: after the rounds, one more run of each workload with the serving process's CPU
 * profile recorded into DIR (server-http-reads.cpuprofile, …) and summarised.
 * --readable: the server runs from an unminified bundle (lib/readable-server.ts), so the profile's
 * summary names source lines too; its figures are not comparable with the usual run's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { type Row, createStory } from './lib/api.ts';
import { type Sample, chapterWrites, load } from './lib/http-load.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { summariseProfile } from './lib/profile.ts';
import { readableServer } from './lib/readable-server.ts';
import { captureSave, statementFloor } from './lib/save-statements.ts';
import { chapterText } from './lib/prose.ts';
import { type Verdict, atLeast, finish, fmt, invalid, median, table } from './lib/report.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1.5' },
    connections: { type: 'string', default: '10' },
    words: { type: 'string', default: '1000' },
    only: { type: 'string', default: 'bare,bare-writes,reads,writes' },
    'idempotency-key': { type: 'string', default: 'on' },
    profile: { type: 'string' },
    readable: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(flags.rounds);
const DURATION_S = Number(flags.duration);
const WARMUP_S = Number(flags.warmup);
const CONNECTIONS = Number(flags.connections);
const WORDS = Number(flags.words);
const ONLY = new Set(flags.only.split(','));
const IDEMPOTENCY_KEYS = flags['idempotency-key'] !== 'off';
const LOAD = { connections: CONNECTIONS };
const COMMIT_FLOOR_S = 0.5;

type TargetName = 'bare' | 'bare-writes' | 'reads' | 'writes';

interface Target {
  name: TargetName;
  label: string;
  server: ChildServer;
  run(seconds: number): Promise<Sample>;
}

/**
 * How a floor's idempotency record holds the answer: `answer` — the whole answer, a third copy of
 * the text (as the server did before migration 0002); `reference` — the revision it equals and the
 * few characters that follow it (as the server stores a save's answer now).
 */
type FloorRecord = 'answer' | 'reference';

/** The same PUT bodies against the bare baseline's storage-free save route. */
function bareWrites(server: ChildServer, body: (n: number) => string) {
  let sent = 0;
  const request: autocannon.Request = {
    method: 'PUT',
    setupRequest(req) {
      const n = ++sent;
      return { ...req, path: `/chapters/${n % CONNECTIONS}`, headers: { ...req.headers, 'content-type': 'application/json' }, body: body(n) };
    },
  };
  return (seconds: number) => load(server, seconds, [request], {}, LOAD);
}

/**
 * What SQLite itself allows, with no HTTP and no server code: a save's writes (seq bump, chapter
 * text update, revision snapshot, idempotency record) straight through better-sqlite3 with the
 * production pragmas on the same disk, `group` saves per transaction (1: one commit each; the
 * connection count: what group commit can reach with that many writers), for `seconds`. Saves per
 * second.
 */
function commitFloor(dir: string, body: (n: number) => string, seconds: number, group: number, record: FloorRecord): number {
  const file = path.join(dir, `commit-floor-${group}-${record}.db`);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(`create table seq (name text primary key, value integer not null);
             insert into seq values ('seq', 0);
             create table chapter (id integer primary key, rev integer not null, content text not null);
             create table revision (rev integer primary key, snapshot text not null);
             create table idempotency (key text primary key, response text not null, rev integer);`);
    const insertChapter = db.prepare('insert into chapter values (?, 0, ?)');
    for (let i = 0; i < group; i++) insertChapter.run(i, '');
    const bump = db.prepare(`update seq set value = value + 1 where name = 'seq' returning value`).pluck();
    const update = db.prepare('update chapter set rev = ?, content = ? where id = ?');
    const snapshot = db.prepare('insert into revision (rev, snapshot) values (?, ?)');
    const keep = db.prepare('insert into idempotency (key, response, rev) values (?, ?, ?)');
    const save = (n: number) => {
      const content = body(n);
      const rev = bump.get() as number;
      update.run(rev, content, n % group);
      const json = JSON.stringify({ rev, content });
      snapshot.run(rev, json);
      if (record === 'answer') keep.run(`floor-${group}-${n}`, json, null);
      else keep.run(`floor-${group}-${n}`, ',"mergeStatus":"fast-forward"}', rev);
    };
    const saveGroup = db.transaction((first: number) => {
      for (let i = 0; i < group; i++) save(first + i);
    });
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      saveGroup(n);
      n += group;
    }
    return n / ((performance.now() - start) / 1000);
  } finally {
    db.close();
  }
}

/**
 * Saves per second of a server that did nothing but a save's HTTP (at `httpRate`) and its SQLite
 * writes (at `storageRate`): better-sqlite3 runs on the event loop's thread, so the two add up.
 */
function serialFloor(httpRate: number, storageRate: number): number {
  return 1 / (1 / httpRate + 1 / storageRate);
}

async function main(): Promise<void> {
  console.log(`server-http — ${describeMachine()}`);
  console.log(`${ROUNDS} rounds × ${DURATION_S} s per target after ${WARMUP_S} s warm-up; ${CONNECTIONS} connections, pipelining 1`);
  console.log(`${describeLoad()} at start\n`);

  const data = tempDataDir();
  const children: ChildServer[] = [];
  try {
    const [bare, server] = await Promise.all([startServer(SERVERS.bare), startServer(flags.readable ? await readableServer() : SERVERS.chronicler, { env: serverEnv(data.dir) })]);
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
    const cookie = story.client.cookie!;

    const writes = chapterWrites(server, story.client, chapterIds, { ...LOAD, words: WORDS, idempotencyKeys: IDEMPOTENCY_KEYS });
    // The save's own SQL, captured from the real server (in this process, on its own file) and
    // replayed grouped like group commit: the floor the write target is measured against.
    const floorTexts = Array.from({ length: 128 }, (_, n) => (JSON.parse(writes.body(n)) as { content: string }).content);
    const floorText = (n: number) => floorTexts[n % floorTexts.length]!;
    const ownSave = ONLY.has('writes') ? await captureSave(data.dir, floorText, CONNECTIONS) : null;
    const targets: Target[] = (
      [
        { name: 'bare', label: 'bare Fastify GET /hello', server: bare, run: (s: number) => load(bare, s, [{ method: 'GET', path: '/hello' }], {}, LOAD) },
        {
          name: 'bare-writes',
          label: `bare Fastify PUT /chapters/{id} (${WORDS} words, no storage)`,
          server: bare,
          run: bareWrites(bare, writes.body),
        },
        {
          name: 'reads',
          label: 'GET /api/series/{id}/books',
          server,
          run: (s: number) => load(server, s, [{ method: 'GET', path: booksPath }], { cookie }, LOAD),
        },
        {
          name: 'writes',
          label: `PUT /api/chapters/{id} (${WORDS} words${IDEMPOTENCY_KEYS ? ', Idempotency-Key' : ''})`,
          server,
          run: (s: number) => writes.run(s),
        },
      ] satisfies Target[]
    ).filter((t) => ONLY.has(t.name));

    for (const target of targets) await target.run(WARMUP_S);
    writes.mergeStatuses.clear();
    const countersBefore = await server.counters();

    const samples = new Map<TargetName, Sample[]>(targets.map((t) => [t.name, []]));
    const floors: number[] = [];
    const groupedFloors: number[] = [];
    const groupedAnswerFloors: number[] = [];
    const statementFloors: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        const s = await target.run(DURATION_S);
        samples.get(target.name)!.push(s);
        console.log(
          `round ${round} ${target.name.padEnd(6)} ${fmt.int(s.rps).padStart(7)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms  ` +
            `server CPU ${fmt.int(s.cpuPerRequest)} µs/request`,
        );
      }
      if (ONLY.has('writes')) {
        floors.push(commitFloor(data.dir, writes.body, COMMIT_FLOOR_S, 1, 'reference'));
        groupedFloors.push(commitFloor(data.dir, writes.body, COMMIT_FLOOR_S, CONNECTIONS, 'reference'));
        groupedAnswerFloors.push(commitFloor(data.dir, writes.body, COMMIT_FLOOR_S, CONNECTIONS, 'answer'));
        statementFloors.push(statementFloor(ownSave!, floorText, COMMIT_FLOOR_S, CONNECTIONS));
        console.log(
          `round ${round} SQLite floor ${fmt.int(floors.at(-1)!)} saves/s one per commit, ${fmt.int(groupedFloors.at(-1)!)} saves/s ${CONNECTIONS} per commit ` +
            `(${fmt.int(groupedAnswerFloors.at(-1)!)} with the answer copied into the record); ` +
            `the save's own ${ownSave!.steps.length} statements ${fmt.int(statementFloors.at(-1)!)} saves/s ${CONNECTIONS} per commit`,
        );
      }
    }
    story.client.close();

    const medianOf = (name: TargetName, pick: (s: Sample) => number) => median((samples.get(name) ?? []).map(pick));
    console.log('');
    console.log(
      table(
        ['target', ...Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1} req/s`), 'median req/s', 'p50', 'p99', 'CPU/request', 'non-2xx', 'errors'],
        targets.map((t) => {
          const list = samples.get(t.name)!;
          return [
            t.label,
            ...list.map((s) => fmt.int(s.rps)),
            fmt.int(medianOf(t.name, (s) => s.rps)),
            `${medianOf(t.name, (s) => s.p50)} ms`,
            `${medianOf(t.name, (s) => s.p99)} ms`,
            `${fmt.int(medianOf(t.name, (s) => s.cpuPerRequest))} µs`,
            list.reduce((n, s) => n + s.non2xx, 0),
            list.reduce((n, s) => n + s.errors, 0),
          ];
        }),
      ),
    );
    const bareRps = medianOf('bare', (s) => s.rps);
    const writeRps = medianOf('writes', (s) => s.rps);
    const groupedFloor = median(groupedFloors);
    const ownStatementsFloor = median(statementFloors);
    if (ONLY.has('writes')) {
      const floor = median(floors);
      const groupedAnswerFloor = median(groupedAnswerFloors);
      const ofBare = (rate: number) => (ONLY.has('bare') ? ` = ${(rate / bareRps).toFixed(2)}× bare Fastify` : '');
      console.log(`\nwrite outcomes (measured rounds): ${[...writes.mergeStatuses].map(([k, v]) => `${k} ${fmt.int(v)}`).join(', ') || 'none'}`);
      console.log(
        `SQLite floor (better-sqlite3, WAL, synchronous=FULL, a save's four writes, the record referring to the snapshot, no HTTP): ` +
          `${fmt.int(floor)} saves/s one per commit${ofBare(floor)}; ${fmt.int(groupedFloor)} saves/s ${CONNECTIONS} per commit${ofBare(groupedFloor)}; ` +
          `${fmt.int(groupedAnswerFloor)} saves/s ${CONNECTIONS} per commit with the answer copied into the record`,
      );
      console.log(
        `the server's writes reach ${(writeRps / groupedFloor).toFixed(2)}× the grouped floor (${(writeRps / floor).toFixed(2)}× one per commit; ` +
          `${(writeRps / groupedAnswerFloor).toFixed(2)}× the grouped floor with the answer copied)`,
      );
      console.log(
        `the save's own statements (captured from the server, replayed on its migrated schema, ${CONNECTIONS} per commit, no HTTP, no server code): ` +
          `${fmt.int(ownStatementsFloor)} saves/s; the server's writes reach ${(writeRps / ownStatementsFloor).toFixed(2)}× it`,
      );
      if (ONLY.has('bare-writes')) {
        const bareWriteRps = medianOf('bare-writes', (s) => s.rps);
        console.log(
          `write floor (a save's HTTP on bare Fastify, then its SQLite work ${CONNECTIONS} per commit, one after the other on the ` +
            `server's one thread): ${fmt.int(serialFloor(bareWriteRps, groupedFloor))} saves/s with the four writes ` +
            `(the server reaches ${(writeRps / serialFloor(bareWriteRps, groupedFloor)).toFixed(2)}× it); ` +
            `${fmt.int(serialFloor(bareWriteRps, ownStatementsFloor))} saves/s with the save's own statements ` +
            `(the server reaches ${(writeRps / serialFloor(bareWriteRps, ownStatementsFloor)).toFixed(2)}× it)`,
        );
      }
      const counters = await server.counters();
      const commits = (counters.commits ?? 0) - (countersBefore.commits ?? 0);
      const committed = (counters.committedWrites ?? 0) - (countersBefore.committedWrites ?? 0);
      if (commits > 0) console.log(`group commit: ${fmt.int(committed)} writes in ${fmt.int(commits)} COMMITs, ${(committed / commits).toFixed(1)} writes per COMMIT`);
    }
    if (ONLY.has('bare') && ONLY.has('reads')) {
      const cpuRatio = medianOf('reads', (s) => s.cpuPerRequest) / medianOf('bare', (s) => s.cpuPerRequest);
      console.log(`reads cost ${cpuRatio.toFixed(1)}× the server CPU per request of bare Fastify`);
    }
    console.log(`${describeLoad()} at end`);

    const verdicts: Verdict[] = [];
    // Reads against bare Fastify; writes against what one thread could do with a save's HTTP and
    // the save's own SQL (the serial write floor): no server can write faster than it. The first
    // target was 0.6× a floor of four index-free writes, which the save's SQL alone does not reach
    // (bench/JOURNAL.md, "a quiet machine at last — every target measured" and "`server-http`
    // against the save's own statements"); 0.6× is kept, against the floor of the save's own
    // statements.
    for (const [name, target] of [['reads', 0.5], ['writes', 0.6]] as const) {
      if (!ONLY.has(name)) continue;
      const failures = samples.get(name)!.reduce((n, s) => n + s.non2xx + s.errors, 0);
      if (name === 'reads' && !ONLY.has('bare')) verdicts.push(invalid(name, 'no bare Fastify baseline in this run (--only)'));
      else if (name === 'writes' && !ONLY.has('bare-writes')) verdicts.push(invalid(name, 'no bare-writes baseline in this run (--only)'));
      else if (failures > 0) verdicts.push(invalid(name, `${failures} requests failed (non-2xx or errors); the figure would not be honest`));
      else if (name === 'reads') verdicts.push(atLeast(name, medianOf(name, (s) => s.rps) / bareRps, target, 'bare Fastify'));
      else {
        const writeFloor = serialFloor(medianOf('bare-writes', (s) => s.rps), ownStatementsFloor);
        verdicts.push(atLeast(name, writeRps / writeFloor, target, `the serial write floor of the save's own statements (${fmt.int(writeFloor)} saves/s)`));
      }
    }

    if (flags.profile) {
      // One extra run per workload, profiled, after the measured rounds (profiling slows it).
      fs.mkdirSync(flags.profile, { recursive: true });
      for (const target of targets) {
        const file = path.resolve(flags.profile, `server-http-${target.name}.cpuprofile`);
        const s = await target.server.profile(file, () => target.run(DURATION_S));
        console.log(`\n${target.label}: ${fmt.int(s.total)} requests while profiled, ${fmt.int(s.rps)} req/s`);
        console.log(summariseProfile(file, { requests: s.total }));
      }
    }
    finish(verdicts);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    data.remove();
  }
}

await main();
