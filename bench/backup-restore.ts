/**
 * `pnpm --filter @chronicler/bench bench:backup-restore` — restoring the benchmark series from a
 * backup archive, against the initial sync of the same series (target: restore ≤ 2× initial sync).
 *
 * The series of sync-initial-dexie.ts (3 books, 2,000 chapters of 1,000 words, 500 characters,
 * 500 locations, 1,000 timeline events) is seeded into the real server (child process, file
 * database in WAL, synchronous=FULL) and downloaded with GET /api/backup. Measured, alternating
 * which goes first, each round on a fresh author of the same server:
 * - restore: POST /api/backup/restore of that archive (the ids are taken by the first author, so
 *   every row is remapped — the costlier case), until the answer;
 * - baseline: the initial sync of the same series by the author who owns it, as
 *   bench/sync-initial-dexie.ts measures it: the REAL sync engine in Chromium pulling from cursor 0
 *   into a fresh Dexie database (GET /api/sync/changes page by page, each page in one transaction).
 * Also printed: the transfer alone (the same pages fetched and parsed in Node, no Dexie), and how
 * long another author's writes wait while a restore runs (a prober saves its own series back to
 * back during each restore; its slowest save is the longest others wait — no request should hold
 * the server more than ~100 ms; a restore writes in slices of ~50 ms,
 * sync-server/src/backup/restore.ts). Medians of `--rounds`.
 *
 *   tsx backup-restore.ts [--chapters 2000] [--words 1000] [--rounds 3] [--profile DIR]
 *
 * `--profile DIR`: one more restore after the rounds, with the server's CPU profile recorded into
 * DIR/restore.cpuprofile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient, createStory, signUp } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { type Verdict, atMost, finish, fmt, median, table } from './lib/report.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';
import { openDatabase, upgradePlan } from './browser/repository.ts';
import { seedThroughRepository, seriesRows } from './browser/story.ts';
import { buildSyncPage } from './browser/bundle.ts';
import { type BenchPage, openBenchPage } from './browser/chromium.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    chapters: { type: 'string', default: '2000' },
    words: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    profile: { type: 'string' },
  },
});
const SIZE = { chapters: Number(flags.chapters), words: Number(flags.words), characters: 500, locations: 500, events: 1000 };
const ROUNDS = Number(flags.rounds);
/** The sync engine's page size (packages/sync-client engine/pull.ts). */
const PAGE = 2000;

console.log(describeMachine());
console.log(describeLoad());

async function initialSync(client: ApiClient): Promise<{ ms: number; rows: number }> {
  const start = performance.now();
  let cursor = 0;
  let rows = 0;
  for (;;) {
    const page = await client.json<{ changes: Record<string, unknown[]>; cursor: number; hasMore: boolean }>('GET', `/api/sync/changes?since=${cursor}&limit=${PAGE}`);
    rows += Object.values(page.changes).reduce((n, list) => n + list.length, 0);
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  return { ms: performance.now() - start, rows };
}

const data = tempDataDir();
const syncPage = await buildSyncPage();
let browser: BenchPage | null = null;
let server: ChildServer | null = null;
const verdicts: Verdict[] = [];
try {
  server = await startServer(SERVERS.chronicler, { env: { ...serverEnv(data.dir), WEB_DIST: syncPage.dir } });
  const story = await createStory(server.url, 3);
  const rows = seriesRows(story.seriesId, story.bookIds, SIZE);
  await seedThroughRepository(path.join(data.dir, 'chronicler.db'), story.client, story.userId, rows.writes);
  console.log(`seeded ${fmt.int(rows.writes.length)} rows (${fmt.int(rows.words)} words)`);
  const download = await story.client.request('GET', '/api/backup');
  if (download.status !== 200) throw new Error(`GET /api/backup answered ${download.status}`);
  const archive = download.body.toString('base64');
  console.log(`archive ${fmt.mb(download.body.length)} (zip), ${fmt.mb(archive.length)} as base64`);

  browser = await openBenchPage(server.url, story.client.cookie!);
  await browser.call('reset', story.userId);
  const page = browser;
  const database = await openDatabase(path.join(data.dir, 'chronicler.db'));
  // Another author whose saves run during each restore.
  const prober = new ApiClient(server.url);
  await signUp(prober);
  const probeSeries = await prober.json<{ id: string }>('POST', '/api/series', { title: 'Probe' });
  const waits: number[] = [];
  const restores: number[] = [];
  const syncs: number[] = [];
  const transfers: number[] = [];
  let syncedRows = 0;
  try {
    for (let round = 0; round < ROUNDS + 1; round++) {
      const newcomer = new ApiClient(server.url);
      const userId = await signUp(newcomer);
      await upgradePlan(database.db, userId, 'legendary');
      const restore = async () => {
        let running = true;
        let slowest = 0;
        const probe = (async () => {
          for (let n = 0; running; n++) {
            const at = performance.now();
            const res = await prober.request('PUT', `/api/series/${probeSeries.id}`, { description: `probe ${n}` });
            if (res.status !== 200) throw new Error(`probe save answered ${res.status}`);
            slowest = Math.max(slowest, performance.now() - at);
          }
        })();
        const start = performance.now();
        const res = await newcomer.request('POST', '/api/backup/restore', { archive });
        const ms = performance.now() - start;
        running = false;
        await probe;
        if (res.status !== 200) throw new Error(`restore answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
        if (round > 0) waits.push(slowest);
        return ms;
      };
      const sync = async () => {
        const pull = await page.call('enginePull', story.userId, false);
        const transfer = await initialSync(story.client);
        syncedRows = transfer.rows;
        if (round > 0) transfers.push(transfer.ms);
        return pull.ms;
      };
      // Alternate which goes first; round 0 is the warm-up.
      let r: number;
      let s: number;
      if (round % 2 === 0) {
        r = await restore();
        s = await sync();
      } else {
        s = await sync();
        r = await restore();
      }
      if (round > 0) {
        restores.push(r);
        syncs.push(s);
      }
      newcomer.close();
    }
    prober.close();
    if (flags.profile) {
      const newcomer = new ApiClient(server.url);
      await upgradePlan(database.db, await signUp(newcomer), 'legendary');
      const file = path.join(path.resolve(flags.profile), 'restore.cpuprofile');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await server.profile(file, () => newcomer.request('POST', '/api/backup/restore', { archive }));
      console.log(`server profile of one restore: ${file}`);
      newcomer.close();
    }
  } finally {
    await database.close();
  }
  const restoreMs = median(restores);
  const syncMs = median(syncs);
  console.log('');
  console.log(
    table(
      ['measure', 'median', 'rounds'],
      [
        ['restore (POST /api/backup/restore, all ids remapped)', fmt.ms(restoreMs), restores.map((x) => x.toFixed(0)).join(', ')],
        [`initial sync into Dexie, engine in Chromium (${fmt.int(syncedRows)} rows)`, fmt.ms(syncMs), syncs.map((x) => x.toFixed(0)).join(', ')],
        ['initial sync transfer alone (Node, no Dexie), for comparison', fmt.ms(median(transfers)), transfers.map((x) => x.toFixed(0)).join(', ')],
        ["another author's slowest save during the restore", fmt.ms(median(waits)), waits.map((x) => x.toFixed(0)).join(', ')],
      ],
    ),
  );
  verdicts.push(atMost('restore of the benchmark series', restoreMs / syncMs, 2, 'its initial sync'));
} finally {
  await browser?.close();
  await server?.stop();
  syncPage.remove();
  data.remove();
  console.log(describeLoad());
}
finish(verdicts);
