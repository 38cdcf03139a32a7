/**
 * `pnpm --filter @chronicler/bench bench:sync-initial` — the first sync of a big series into
 * Dexie, in Chromium, by the REAL sync engine, against a bare Dexie `bulkPut` of the same rows.
 * Target: the engine's pull ≤ 2× the bulkPut, wall time (a run at the defaults takes ~90–100 s).
 *
 * The series: 3 books, 2,000 chapters of 1,000 words (2 million words of deterministic prose-like
 * text), 500 characters, 500 locations and 1,000 timeline events. The author, series and books are
 * made through the API; the rest goes into the server's database file as the server's insertRow
 * would store it (browser/repository.ts: a seq per row, its derived fields, column encoding and
 * revision snapshot), and the last row of each kind is read back through the API to prove it.
 *
 * The page: browser/page/entry.ts bundled with @chronicler/sync-client by esbuild, served by the real server
 * as its WEB_DIST, so it runs on the API's origin with the session cookie. Measured, alternately
 * first, in each round, after the browser has gone quiet (IndexedDB compacts after big writes):
 * - engine: a fresh database, `engine.pull()` from cursor 0 — GET /api/sync/changes page by page
 *   (the engine's page size), each page applied in one Dexie transaction — timed in the page from
 *   the first request to the last commit;
 * - baseline: a fresh database of the same schema (openChroniclerDb), one transaction with one
 *   `bulkPut` per table of the same rows, already in memory (what the warm-up pull stored).
 * Medians of `--rounds`. Also printed: where the pull's time goes (server wait, body, JSON.parse,
 * Dexie apply) and the CPU time of every Chromium process and of the server (/proc), which other
 * load on the machine disturbs far less than wall time.
 *
 *   tsx sync-initial-dexie.ts [--chapters 2000] [--words 1000] [--characters 500] [--locations 500]
 *                             [--events 1000] [--rounds 5] [--profile DIR]
 * --profile DIR: one more engine pull with the page's main-thread CPU profile recorded (the whole
 *   run then uses an unminified bundle), written to DIR and summarised.
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
import type { BenchKind, BulkPutResult, PullResult } from './browser/page/protocol.ts';
import { seedThroughRepository, seriesRows } from './browser/story.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    chapters: { type: 'string', default: '2000' },
    words: { type: 'string', default: '1000' },
    characters: { type: 'string', default: '500' },
    locations: { type: 'string', default: '500' },
    events: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    profile: { type: 'string' },
  },
});
const SIZE = {
  chapters: Number(flags.chapters),
  words: Number(flags.words),
  characters: Number(flags.characters),
  locations: Number(flags.locations),
  events: Number(flags.events),
};
const ROUNDS = Number(flags.rounds);
const BOOKS = 3;
const TARGET = 2;

/** A page call and the CPU time of the Chromium processes and of the server while it ran. */
type Measured<T> = CpuUse & { result: T };
interface Round {
  engineFirst: boolean;
  engine: Measured<PullResult>;
  baseline: Measured<BulkPutResult>;
}

function expectedCounts(): Partial<Record<BenchKind, number>> {
  return { series: 1, books: BOOKS, chapters: SIZE.chapters, characters: SIZE.characters, locations: SIZE.locations, timelineEvents: SIZE.events };
}

/** Whether a pull (and the baseline) stored exactly the seeded series. */
function checkCounts(counts: Partial<Record<BenchKind, number>>, words?: number): string | null {
  for (const [kind, n] of Object.entries(expectedCounts())) {
    if ((counts[kind as BenchKind] ?? 0) !== n) return `${kind}: ${counts[kind as BenchKind] ?? 0} stored, ${n} expected`;
  }
  if (words !== undefined && words !== SIZE.chapters * SIZE.words) return `${words} words stored, ${SIZE.chapters * SIZE.words} expected`;
  return null;
}

async function main(): Promise<void> {
  console.log(`sync-initial-dexie — ${describeMachine()}`);
  console.log(
    `${fmt.int(SIZE.chapters)} chapters × ${fmt.int(SIZE.words)} words in ${BOOKS} books, ${fmt.int(SIZE.characters)} characters, ` +
      `${fmt.int(SIZE.locations)} locations, ${fmt.int(SIZE.events)} timeline events; ${ROUNDS} rounds after a warm-up`,
  );
  console.log(`${describeLoad()} at start\n`);

  const data = tempDataDir();
  const page = await buildSyncPage({ minify: !flags.profile });
  let server: ChildServer | null = null;
  let browser: BenchPage | null = null;
  const verdicts: Verdict[] = [];
  try {
    server = await startServer(SERVERS.chronicler, { env: { ...serverEnv(data.dir), WEB_DIST: page.dir } });
    const story = await createStory(server.url, BOOKS);
    const seedStart = performance.now();
    const rows = seriesRows(story.seriesId, story.bookIds, SIZE);
    await seedThroughRepository(path.join(data.dir, 'chronicler.db'), story.client, story.userId, rows.writes);
    console.log(`seeded ${fmt.int(rows.writes.length)} rows (${fmt.int(rows.words)} words) in ${fmt.ms(performance.now() - seedStart)}; each kind reads back through the API as the server answers a create`);

    browser = await openBenchPage(server.url, story.client.cookie!);
    console.log(`Chromium ${browser.browserVersion} (${CHROMIUM_ARGS.join(' ')}), page bundle ${fmt.mb(page.bytes)}`);
    await browser.call('reset', story.userId);
    const serverPid = server.pid;
    const bench = browser;

    // Warm-up: the engine's pull (kept: its rows are the baseline's input) and one bulkPut, both checked.
    const warmPull = await bench.call('enginePull', story.userId, true);
    const warmPut = await bench.call('baselineBulkPut', story.userId);
    const warmProblem = checkCounts(warmPull.counts, warmPull.words) ?? checkCounts(warmPut.counts);
    console.log(
      `warm-up: engine ${fmt.ms(warmPull.ms)} over ${warmPull.pages.length} pages, bulkPut ${fmt.ms(warmPut.ms)}; ` +
        `${fmt.int(warmPull.words)} words, ${Object.entries(warmPull.counts)
          .filter(([, n]) => n)
          .map(([k, n]) => `${fmt.int(n!)} ${k}`)
          .join(', ')}${warmProblem ? ` — WRONG: ${warmProblem}` : ''}`,
    );

    const rounds: Round[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const pull = async () => {
        await settle(serverPid);
        return measureCpu(serverPid, () => bench.call('enginePull', story.userId, false));
      };
      const put = async () => {
        await settle(serverPid);
        return measureCpu(serverPid, () => bench.call('baselineBulkPut', story.userId));
      };
      const engineFirst = round % 2 === 0;
      const first = engineFirst ? await pull() : await put();
      const second = engineFirst ? await put() : await pull();
      const [engine, baseline] = (engineFirst ? [first, second] : [second, first]) as [Awaited<ReturnType<typeof pull>>, Awaited<ReturnType<typeof put>>];
      rounds.push({ engineFirst, engine, baseline });
    }
    const problem =
      warmProblem ?? rounds.map((r) => checkCounts(r.engine.result.counts, r.engine.result.words) ?? checkCounts(r.baseline.result.counts)).find(Boolean) ?? null;

    const engineMs = median(rounds.map((r) => r.engine.result.ms));
    const baselineMs = median(rounds.map((r) => r.baseline.result.ms));
    const sum = (r: Round, key: 'waitMs' | 'bodyMs' | 'parseMs') => r.engine.result.pages.reduce((total, p) => total + p[key], 0);
    const applyMs = (r: Round) => r.engine.result.ms - sum(r, 'waitMs') - sum(r, 'bodyMs') - sum(r, 'parseMs');
    const engineCpu = (r: Round) => r.engine.browser + r.engine.server;
    console.log('');
    console.log(
      table(
        ['round', 'first', 'bare bulkPut', 'engine pull', 'ratio', 'server wait', 'body', 'parse', 'apply', 'CPU bulkPut', 'CPU pull (browser+server)'],
        [
          ...rounds.map((r, i) => [
            String(i + 1),
            r.engineFirst ? 'engine' : 'bulkPut',
            fmt.ms(r.baseline.result.ms),
            fmt.ms(r.engine.result.ms),
            fmt.ratio(r.engine.result.ms / r.baseline.result.ms),
            fmt.ms(sum(r, 'waitMs')),
            fmt.ms(sum(r, 'bodyMs')),
            fmt.ms(sum(r, 'parseMs')),
            fmt.ms(applyMs(r)),
            fmt.ms(r.baseline.browser),
            `${fmt.ms(engineCpu(r))} (${fmt.ms(r.engine.browser)}+${fmt.ms(r.engine.server)})`,
          ]),
          [
            'median',
            '',
            fmt.ms(baselineMs),
            fmt.ms(engineMs),
            fmt.ratio(engineMs / baselineMs),
            fmt.ms(median(rounds.map((r) => sum(r, 'waitMs')))),
            fmt.ms(median(rounds.map((r) => sum(r, 'bodyMs')))),
            fmt.ms(median(rounds.map((r) => sum(r, 'parseMs')))),
            fmt.ms(median(rounds.map(applyMs))),
            fmt.ms(median(rounds.map((r) => r.baseline.browser))),
            fmt.ms(median(rounds.map(engineCpu))),
          ],
        ],
      ),
    );
    const last = rounds[rounds.length - 1]!.engine.result;
    console.log(
      `\npages of the last round: ${last.pages
        .map((p) => `${fmt.int(p.rows)} rows (wait ${fmt.ms(p.waitMs)}, body ${fmt.ms(p.bodyMs)}, parse ${fmt.ms(p.parseMs)}, committed at ${fmt.ms(p.doneMs)})`)
        .join('; ')}`,
    );
    console.log('wait: request → response headers (server); body: response.text(); parse: JSON.parse; apply: the rest — Dexie transactions (shadow lookups, bulkPut, cursor)');
    const roles: ChromiumRole[] = ['renderer', 'browser', 'storage', 'network', 'gpu', 'other'];
    const roleRows = roles
      .map((role) => [role, median(rounds.map((r) => r.baseline.roles[role])), median(rounds.map((r) => r.engine.roles[role]))] as const)
      .filter(([, put, pull]) => put > 0 || pull > 0)
      .map(([role, put, pull]) => [`Chromium ${role}`, fmt.ms(put), fmt.ms(pull), fmt.ms(pull - put)]);
    console.log('');
    console.log(
      table(
        ['CPU time by process (median)', 'bulkPut', 'engine pull', 'difference'],
        [
          ...roleRows,
          ['server (Node)', '', fmt.ms(median(rounds.map((r) => r.engine.server))), ''],
        ],
      ),
    );
    const cpuRatio = median(rounds.map(engineCpu)) / median(rounds.map((r) => r.baseline.browser));
    console.log(`CPU time (Chromium processes + server, /proc): pull ${fmt.ratio(cpuRatio)} the bulkPut's — less disturbed by other load than wall time`);
    console.log(`baseline absolute: bare bulkPut of ${fmt.int(rows.writes.length + 1 + BOOKS)} rows = ${fmt.ms(baselineMs)} (median of ${ROUNDS})`);
    console.log(`engine throughput: ${fmt.int((SIZE.chapters * SIZE.words) / (engineMs / 1000))} words/s`);
    console.log(`${describeLoad()} at end`);

    verdicts.push(
      problem
        ? invalid('initial sync into Dexie', `the stored rows are not the seeded series (${problem}); the timing would not be honest`)
        : atMost('initial sync into Dexie', engineMs / baselineMs, TARGET, 'bare Dexie bulkPut (wall time, median)'),
    );

    if (flags.profile) {
      fs.mkdirSync(flags.profile, { recursive: true });
      const file = path.resolve(flags.profile, 'sync-initial-dexie.cpuprofile');
      const { result, profile } = await bench.profile(() => bench.call('enginePull', story.userId, false));
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`\nengine pull while profiled (page main thread only; IndexedDB's backend runs in the browser process): ${fmt.ms(result.ms)}`);
      console.log(summariseProfile(file, { top: 25 }));
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
