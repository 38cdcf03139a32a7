/**
 * `pnpm --filter @chronicler/bench bench:sync-flush` — flushing 5,000 queued offline mutations to
 * the server with the REAL sync engine (in Chromium, real IndexedDB), against writing the same
 * rows straight into better-sqlite3 through the server's own repository code.
 * Targets: the flush ≤ 20× the baseline, wall time; queueing the session ≤ 3× bare Dexie, per
 * mutation.
 *
 * Set-up: a real server (child process, temp DATA_DIR, production settings) serving the test page
 * (browser/page/entry.ts bundled with @chronicler/sync-client); an author with a series of 3 books, 900
 * chapters of 1,000 words, 400 characters, 400 locations and 500 timeline events, which the
 * engine pulls into the page's Dexie first. Each round then:
 * 1. plans an offline session (browser/outbox-plan.ts: creates and updates of chapters,
 *    characters, locations and events; a new chapter's first save follows its create a few steps
 *    later — the mutators fold it into the still-unsent create, so the outbox holds one entry
 *    fewer per new chapter than there are mutations);
 * 2. copies the server's database (SQLite online backup) for the baseline, so both start equal;
 * 3. queues the session through the real mutators, offline (each mutation: the row and its outbox
 *    entry in one Dexie transaction), and, alternately first, the same mutations as bare Dexie
 *    transactions of the row and one outbox entry: the local-writes ratio, per mutation;
 * 4. measures, alternately first, after the browser has gone quiet:
 *    - flush: `engine.push()` until the outbox is empty — POST /api/sync/batch while the backlog is
 *      long (the engine's batches: up to 200 entries, cut before each chained entry), single REST
 *      calls for the tail; each answer acknowledged in Dexie (rebase, chains) — timed in the page
 *      from the start of the flush to the empty outbox;
 *    - baseline: the same changes on the copy, through sync-server's nextSeq + insertRow /
 *      updateRow (a seq, stamps, derived word count, revision snapshot per write), each write in
 *      its own nested transaction, all in ONE commit (browser/repository.ts): what the server's
 *      storage must do at least, without HTTP, routes, checks and the engine.
 * 5. checks both: nothing rejected or left, and the server's rows equal the baseline's.
 * Medians of `--rounds`. Also printed: requests and batch sizes, server time, CPU time of the
 * server and of each Chromium process (/proc), and a one-commit-per-write sample for context.
 *
 * The default is ONE measured round (a 5,000-entry session is queued and flushed in minutes on a
 * loaded 2-core machine) after a warm-up round of 250 mutations that also checks the results.
 *
 *   tsx sync-flush-outbox.ts [--mutations 5000] [--rounds 1] [--warmup 250] [--words 1000] [--flush on|off]
 *                         [--profile DIR]
 * --mutations 1000: a quick look. --flush off: the queueing and its bare baseline only, one round,
 *   no warm-up.
 * --profile DIR: one more round with the server's CPU profile and the page's main-thread profile
 *   recorded during the flush (unminified bundle), written to DIR and summarised.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createStory } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { summariseProfile } from './lib/profile.ts';
import { type Verdict, atMost, finish, fmt, invalid, median, table } from './lib/report.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';
import { buildSyncPage } from './browser/bundle.ts';
import { type BenchPage, CHROMIUM_ARGS, openBenchPage } from './browser/chromium.ts';
import { type ChromiumRole, type CpuUse, measureCpu, settle } from './browser/cpu.ts';
import { type ExistingSeries, type Mix, type Plan, mixFor, planSession } from './browser/outbox-plan.ts';
import type { FlushResult } from './browser/page/protocol.ts';
import { type OpenedDatabase, applyWrites, openDatabase } from './browser/repository.ts';
import { seedThroughRepository, seriesRows } from './browser/story.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    mutations: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '250' },
    words: { type: 'string', default: '1000' },
    flush: { type: 'string', default: 'on' },
    profile: { type: 'string' },
  },
});
const MUTATIONS = Number(flags.mutations);
const ROUNDS = Number(flags.rounds);
const WARMUP = Number(flags.warmup);
const WORDS = Number(flags.words);
const BOOKS = 3;
const TARGET = 20;
/** Queueing one mutation through the mutators ÷ one bare Dexie transaction writing a row and an outbox entry. */
const QUEUE_TARGET = 3;
/** `--flush off`: only the queueing and its bare baseline, one round, no warm-up (a quick look at the mutators). */
const FLUSH = flags.flush !== 'off';
const SEED = { chapters: 900, words: WORDS, characters: 400, locations: 400, events: 500 };
/** outbox-plan.ts's name for a new chapter's first text save (queued a few steps after its create). */
const FIRST_SAVE = 'new chapter first save (chained)';
/** Writes of the one-commit-per-write sample (context only: each commit waits for the disk). */
const COMMIT_EACH_SAMPLE = 200;

type Measured<T> = CpuUse & { result: T };
interface Round {
  flushFirst: boolean;
  queueMs: number;
  /** The same mutations as bare Dexie transactions (one row + one outbox entry each). */
  bareMs: number;
  /** Outbox entries the mutations made (fewer than mutations when updates were coalesced). */
  entries: number;
  chained: number;
  flush: Measured<FlushResult>;
  baselineMs: number;
  /** CPU time of this process while the baseline ran (it runs here, on one thread). */
  baselineCpuMs: number;
  problem: string | null;
}

/** Rows of the series in the story tables, as a comparable fingerprint (no revs or timestamps). */
function fingerprint(database: OpenedDatabase, seriesId: string): Record<string, string> {
  const queries: Record<string, string> = {
    chapters: 'SELECT id, book_id, title, content, position, word_count, status FROM chapters WHERE series_id = ? ORDER BY id',
    characters: 'SELECT id, name, description, goals, book_appearances, is_protagonist FROM characters WHERE series_id = ? ORDER BY id',
    locations: 'SELECT id, name, description, importance, book_appearances FROM locations WHERE series_id = ? ORDER BY id',
    timeline_events: 'SELECT id, title, description, importance, book_id, chapter_id, location_id, character_ids, position FROM timeline_events WHERE series_id = ? ORDER BY id',
  };
  const out: Record<string, string> = {};
  for (const [name, sql] of Object.entries(queries)) {
    const rows = database.sqlite!.prepare(sql).all(seriesId);
    out[name] = `${rows.length} rows, ${JSON.stringify(rows).length} bytes, ${hash(JSON.stringify(rows))}`;
  }
  return out;
}

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

function describeRequests(flush: FlushResult): string {
  const batches = flush.requests.filter((r) => r.path.endsWith('/api/sync/batch'));
  const singles = flush.requests.length - batches.length;
  const sizes = batches.map((b) => b.entries);
  const serverMs = flush.requests.reduce((sum, r) => sum + r.ms, 0);
  return (
    `${flush.requests.length} requests: ${batches.length} batches (entries min ${Math.min(...sizes)}, median ${median(sizes)}, ` +
    `max ${Math.max(...sizes)}), ${singles} single calls; request → answer headers ${fmt.ms(serverMs)} in all`
  );
}

async function main(): Promise<void> {
  const mix = mixFor(MUTATIONS);
  console.log(`sync-flush-outbox — ${describeMachine()}`);
  console.log(`${fmt.int(MUTATIONS)} queued mutations per round; ${ROUNDS} rounds after a warm-up round`);
  console.log(`${describeLoad()} at start\n`);

  const data = tempDataDir();
  const page = await buildSyncPage({ minify: !flags.profile });
  let server: ChildServer | null = null;
  let browser: BenchPage | null = null;
  const verdicts: Verdict[] = [];
  try {
    server = await startServer(SERVERS.chronicler, { env: { ...serverEnv(data.dir), WEB_DIST: page.dir } });
    const serverPid = server.pid;
    const databaseFile = path.join(data.dir, 'chronicler.db');
    const story = await createStory(server.url, BOOKS);
    const seedStart = performance.now();
    const rows = seriesRows(story.seriesId, story.bookIds, SEED, 7);
    await seedThroughRepository(databaseFile, story.client, story.userId, rows.writes);
    const series: ExistingSeries = {
      seriesId: story.seriesId,
      bookIds: story.bookIds,
      chapters: rows.chapters.map((c) => ({ ...c })),
      characterIds: rows.characterIds,
      locationIds: rows.locationIds,
      eventIds: rows.eventIds,
      chaptersPerBook: new Map(story.bookIds.map((id) => [id, rows.chapters.filter((c) => c.bookId === id).length])),
    };
    console.log(
      `seeded ${fmt.int(SEED.chapters)} chapters (${fmt.int(rows.words)} words), ${SEED.characters} characters, ${SEED.locations} locations, ` +
        `${SEED.events} events in ${fmt.ms(performance.now() - seedStart)}`,
    );

    const bench = await openBenchPage(server.url, story.client.cookie!);
    browser = bench;
    console.log(`Chromium ${bench.browserVersion} (${CHROMIUM_ARGS.join(' ')}), page bundle ${fmt.mb(page.bytes)}`);
    await bench.call('reset', story.userId);
    const pulled = await bench.call('enginePull', story.userId, true);
    console.log(`the page pulled the series: ${fmt.int(Object.values(pulled.counts).reduce((a, b) => a + (b ?? 0), 0))} rows in ${fmt.ms(pulled.ms)}`);

    const server_ = server;
    const runRound = async (round: number, flushFirst: boolean, roundMix: Mix, profileDir?: string): Promise<Round & { plan: Plan }> => {
      const plan = planSession(series, roundMix, round, WORDS);
      // The baseline starts from the server's state before the flush: an online backup of its file.
      const baselineFile = path.join(data.dir, `baseline-${round}.db`);
      const source = await openDatabase(databaseFile);
      await source.sqlite!.backup(baselineFile);
      await source.close();
      const baselineDb = await openDatabase(baselineFile);

      // The queue and its bare baseline, alternately first.
      let bare: Awaited<ReturnType<typeof bench.call<'bareQueue'>>>;
      let queued: Awaited<ReturnType<typeof bench.call<'queue'>>>;
      if (flushFirst) {
        bare = await bench.call('bareQueue', story.userId, plan.mutations);
        queued = await bench.call('queue', story.userId, plan.mutations);
      } else {
        queued = await bench.call('queue', story.userId, plan.mutations);
        bare = await bench.call('bareQueue', story.userId, plan.mutations);
      }
      if (bare.outbox !== plan.mutations.length) throw new Error(`the bare queue wrote ${bare.outbox} entries for ${plan.mutations.length} mutations`);
      if (!FLUSH) {
        await baselineDb.close();
        return { plan, flushFirst, queueMs: queued.ms, bareMs: bare.ms, entries: queued.outbox, chained: queued.chained, flush: { result: null as never, server: 0, browser: 0, roles: {} as never }, baselineMs: NaN, baselineCpuMs: NaN, problem: null };
      }
      const flush = async () => {
        await settle(serverPid);
        if (!profileDir) return measureCpu(serverPid, () => bench.call('flush', story.userId));
        const serverProfile = path.resolve(profileDir, 'sync-flush-outbox.server.cpuprofile');
        const { result: pageRun, profile } = await bench.profile(() =>
          server_.profile(serverProfile, () => measureCpu(serverPid, () => bench.call('flush', story.userId))),
        );
        fs.writeFileSync(path.resolve(profileDir, 'sync-flush-outbox.page.cpuprofile'), JSON.stringify(profile));
        return pageRun;
      };
      const baseline = async () => {
        await settle(serverPid);
        const cpu = process.cpuUsage();
        const start = performance.now();
        await applyWrites(baselineDb.db, story.userId, plan.writes);
        const ms = performance.now() - start;
        const { user, system } = process.cpuUsage(cpu);
        return { ms, cpuMs: (user + system) / 1000 };
      };
      let flushed: Measured<FlushResult>;
      let base: { ms: number; cpuMs: number };
      if (flushFirst) {
        flushed = await flush();
        base = await baseline();
      } else {
        base = await baseline();
        flushed = await flush();
      }

      let problem: string | null = null;
      const f = flushed.result;
      // The mutators fold a new chapter's first save into its still-unsent create (one POST with
      // the text): one entry fewer per new chapter. An engine without that queues one per mutation.
      const folded = plan.counts[FIRST_SAVE] ?? 0;
      if (queued.outbox !== plan.mutations.length - folded && queued.outbox !== plan.mutations.length) {
        problem = `${queued.outbox} outbox entries queued for ${plan.mutations.length} mutations (${folded} first saves of new chapters)`;
      } else if (f.outboxLeft !== 0 || f.rejected !== 0 || f.deadLetters !== 0 || f.acked !== queued.outbox) {
        problem = `acked ${f.acked}, rejected ${f.rejected}, left ${f.outboxLeft}, dead letters ${f.deadLetters}`;
      } else {
        const live = await openDatabase(databaseFile);
        const [a, b] = [fingerprint(live, story.seriesId), fingerprint(baselineDb, story.seriesId)];
        await live.close();
        const differs = Object.keys(a).find((k) => a[k] !== b[k]);
        if (differs) problem = `the server's ${differs} (${a[differs]}) differ from the baseline's (${b[differs]})`;
      }
      await baselineDb.close();
      fs.rmSync(baselineFile, { force: true });
      for (const suffix of ['-wal', '-shm']) fs.rmSync(baselineFile + suffix, { force: true });
      return { plan, flushFirst, queueMs: queued.ms, bareMs: bare.ms, entries: queued.outbox, chained: queued.chained, flush: flushed, baselineMs: base.ms, baselineCpuMs: base.cpuMs, problem };
    };

    /** Per mutation, the queue's time through the mutators and through bare transactions. */
    const queueVerdict = (rounds: readonly Round[]): Verdict => {
      const perMutation = (ms: number) => `${((ms * 1000) / MUTATIONS).toFixed(0)} µs`;
      const queueMs = median(rounds.map((r) => r.queueMs));
      const bareMs = median(rounds.map((r) => r.bareMs));
      console.log(
        `queueing ${fmt.int(MUTATIONS)} mutations: mutators ${fmt.ms(queueMs)} (${perMutation(queueMs)} each) vs bare Dexie transactions ` +
          `(one row + one outbox entry) ${fmt.ms(bareMs)} (${perMutation(bareMs)} each) = ${fmt.ratio(queueMs / bareMs)}` +
          (rounds.length > 1 ? ` (rounds ${rounds.map((r) => fmt.ratio(r.queueMs / r.bareMs)).join(' · ')})` : ''),
      );
      return atMost('local writes', queueMs / bareMs, QUEUE_TARGET, 'a bare Dexie transaction per mutation (row + outbox entry)');
    };
    if (!FLUSH) {
      const quick = await runRound(1, false, mix);
      console.log(`${describeLoad()} at end`);
      verdicts.push(queueVerdict([quick]));
      if (flags.profile) {
        // One more session queued while the page's main thread is profiled.
        fs.mkdirSync(flags.profile, { recursive: true });
        const plan = planSession(series, mix, 2, WORDS);
        const { result, profile } = await bench.profile(() => bench.call('queue', story.userId, plan.mutations));
        const file = path.resolve(flags.profile, 'sync-flush-outbox.queue.cpuprofile');
        fs.writeFileSync(file, JSON.stringify(profile));
        console.log(`\nqueue while profiled: ${fmt.ms(result.ms)}\n== page main thread (queue) ==`);
        console.log(summariseProfile(file, { requests: plan.mutations.length, unit: 'mutation', top: 30 }));
      }
    } else {
      const warm = await runRound(0, true, mixFor(WARMUP));
      console.log(
        `warm-up: queued ${fmt.int(warm.plan.mutations.length)} mutations in ${fmt.ms(warm.queueMs)} (${fmt.int(warm.entries)} outbox entries, ${warm.chained} chained), ` +
          `flush ${fmt.ms(warm.flush.result.ms)}, baseline ${fmt.ms(warm.baselineMs)}${warm.problem ? ` — WRONG: ${warm.problem}` : ''}`,
      );


      // Context: the same repository writes, one commit each (as one request per mutation commits).
      const sampleFile = path.join(data.dir, 'commit-each.db');
      const sampleSource = await openDatabase(databaseFile);
      await sampleSource.sqlite!.backup(sampleFile);
      await sampleSource.close();
      const sampleDb = await openDatabase(sampleFile);
      const samplePlan = planSession({ ...series, chapters: series.chapters.map((c) => ({ ...c })), chaptersPerBook: new Map(series.chaptersPerBook) }, mixFor(COMMIT_EACH_SAMPLE), 99, WORDS);
      const sampleStart = performance.now();
      await applyWrites(sampleDb.db, story.userId, samplePlan.writes, 'commit-each');
      const commitEachMs = performance.now() - sampleStart;
      await sampleDb.close();

      const rounds: (Round & { plan: Plan })[] = [];
      for (let round = 1; round <= ROUNDS; round++) rounds.push(await runRound(round, round % 2 === 0, mix));
      const problem = warm.problem ?? rounds.map((r) => r.problem).find(Boolean) ?? null;
      console.log(
        `each round's session: ${Object.entries(rounds[0]!.plan.counts).map(([k, n]) => `${fmt.int(n)} ${k}`).join(', ')}; ` +
          `${fmt.int(rounds[0]!.entries)} outbox entries, ${rounds[0]!.chained} chained`,
      );

      const flushMs = median(rounds.map((r) => r.flush.result.ms));
      const baselineMs = median(rounds.map((r) => r.baselineMs));
      const perEntry = (ms: number) => `${((ms * 1000) / MUTATIONS).toFixed(0)} µs`;
      console.log('');
      console.log(
        table(
          ['round', 'first', 'queue (mutators)', 'baseline (repository)', 'flush (engine)', 'ratio', 'requests', 'CPU server', 'CPU Chromium'],
          [
            ...rounds.map((r, i) => [
              String(i + 1),
              r.flushFirst ? 'flush' : 'baseline',
              fmt.ms(r.queueMs),
              fmt.ms(r.baselineMs),
              fmt.ms(r.flush.result.ms),
              fmt.ratio(r.flush.result.ms / r.baselineMs),
              r.flush.result.requests.length,
              fmt.ms(r.flush.server),
              fmt.ms(r.flush.browser),
            ]),
            [
              'median',
              '',
              fmt.ms(median(rounds.map((r) => r.queueMs))),
              fmt.ms(baselineMs),
              fmt.ms(flushMs),
              fmt.ratio(flushMs / baselineMs),
              '',
              fmt.ms(median(rounds.map((r) => r.flush.server))),
              fmt.ms(median(rounds.map((r) => r.flush.browser))),
            ],
            ['per entry', '', perEntry(median(rounds.map((r) => r.queueMs))), perEntry(baselineMs), perEntry(flushMs), '', '', perEntry(median(rounds.map((r) => r.flush.server))), perEntry(median(rounds.map((r) => r.flush.browser)))],
          ],
        ),
      );
      const last = rounds[rounds.length - 1]!;
      console.log(`\nlast round: ${describeRequests(last.flush.result)}`);
      const roles: ChromiumRole[] = ['renderer', 'browser', 'storage', 'network', 'gpu', 'other'];
      console.log(
        `CPU during the flush (median): server ${fmt.ms(median(rounds.map((r) => r.flush.server)))}; Chromium ` +
          roles
            .map((role) => [role, median(rounds.map((r) => r.flush.roles[role]))] as const)
            .filter(([, ms]) => ms > 0)
            .map(([role, ms]) => `${role} ${fmt.ms(ms)}`)
            .join(', '),
      );
      const flushCpu = median(rounds.map((r) => r.flush.server + r.flush.browser));
      const baselineCpu = median(rounds.map((r) => r.baselineCpuMs));
      console.log(
        `CPU time: flush (server + Chromium) ${fmt.ms(flushCpu)} vs baseline ${fmt.ms(baselineCpu)} = ${fmt.ratio(flushCpu / baselineCpu)} ` +
          '(less disturbed by other load than wall time)',
      );
      console.log(
        `context: the same repository writes with one commit each (as one request per mutation) — ${COMMIT_EACH_SAMPLE} writes in ${fmt.ms(commitEachMs)}, ` +
          `${perEntry((commitEachMs * MUTATIONS) / COMMIT_EACH_SAMPLE)} per write (one commit for all: ${perEntry(baselineMs)})`,
      );
      console.log(`baseline absolute: ${fmt.int(MUTATIONS)} repository writes in one commit = ${fmt.ms(baselineMs)} (median of ${ROUNDS})`);
      console.log(`${describeLoad()} at end`);
      verdicts.push(queueVerdict(rounds));

      verdicts.push(
        problem
          ? invalid('outbox flush', `the flush did not land exactly the planned rows (${problem}); the timing would not be honest`)
          : atMost('outbox flush', flushMs / baselineMs, TARGET, 'repository writes in better-sqlite3 (wall time, median)'),
      );

      if (flags.profile) {
        fs.mkdirSync(flags.profile, { recursive: true });
        const profiled = await runRound(ROUNDS + 1, true, mix, flags.profile);
        console.log(`\nflush while profiled: ${fmt.ms(profiled.flush.result.ms)} (${describeRequests(profiled.flush.result)})`);
        console.log('\n== server ==');
        console.log(summariseProfile(path.resolve(flags.profile, 'sync-flush-outbox.server.cpuprofile'), { requests: MUTATIONS, unit: 'entry' }));
        console.log('\n== page main thread ==');
        console.log(summariseProfile(path.resolve(flags.profile, 'sync-flush-outbox.page.cpuprofile'), { requests: MUTATIONS, unit: 'entry', top: 30 }));
      }
    }
    story.client.close();
  } finally {
    await browser?.close();
    await server?.stop();
    page.remove();
    data.remove();
  }
  finish(verdicts);
}

await main();
