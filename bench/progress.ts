/**
 * Writing progress at scale: an author with 2,000 chapters of 1,000 words (2 million
 * words), 40 characters, 30 places and a year of daily statistics.
 *   server — CPU per POST /api/check-achievements (evaluation: stats, streak, counts, idempotent
 *            earning in a write transaction) ÷ CPU per GET /api/series/{id}/books, same run.
 *            Target ≤ 3×.
 *   device — the dashboard's data from IndexedDB (readProgress + current book + its chapters,
 *            through the sync-client's queries) ÷ bare Dexie reads of the same rows. Target ≤ 1.5×.
 * In-process: the server through buildApp + inject (the inject cost is in both sides of the ratio)
 * on a temp file database in WAL with synchronous=FULL; Dexie over fake-indexeddb in Node.
 *
 *   tsx progress.ts [--rounds 5] [--requests 40]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addDays, newId, writingDay } from '@chronicler/schema';
import { buildApp } from '@chronicler/sync-server';
import { testConfig } from '@chronicler/sync-server/config';
import { chapterText } from './lib/prose.ts';
import { type Verdict, atMost, finish, fmt, invalid, median, table } from './lib/report.ts';
import { benchArgs, describeLoad, describeMachine } from './lib/setting.ts';

const { values: flags } = parseArgs({ args: benchArgs(), options: { rounds: { type: 'string', default: '5' }, requests: { type: 'string', default: '40' } } });
const ROUNDS = Number(flags.rounds);
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const REQUESTS = Number(flags.requests);
const CHAPTERS = 2_000;
const WORDS = 1_000;
const DAYS = 365;

console.log(describeMachine());
console.log(describeLoad());
const verdicts: Verdict[] = [];

// ---------------------------------------------------------------------------------------------
// Server

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-progress-bench-'));
const app = await buildApp(testConfig({ databaseFile: path.join(dir, 'bench.db'), logLevel: false }));
await app.ready();
const reg = await app.inject({ method: 'POST', url: '/api/register', payload: { username: 'benchauthor', password: 'bench-password', displayName: 'Bench Author' } });
const cookie = `chronicler_session=${reg.cookies.find((c) => c.name === 'chronicler_session')!.value}`;
const userId = (JSON.parse(reg.body) as { id: string }).id;
const headers = { cookie, 'content-type': 'application/json' };
const post = async (url: string, payload: unknown) => JSON.parse((await app.inject({ method: 'POST', url, payload: payload as object, headers })).body) as { id: string };
const series = await post('/api/series', { title: 'The Long Saga', totalBooks: 3 });
await app.deps.database.db.updateTable('users').set({ plan: 'legendary' }).where('id', '=', userId).execute();
const books = [await post('/api/books', { seriesId: series.id, title: 'One' }), await post('/api/books', { seriesId: series.id, title: 'Two' }), await post('/api/books', { seriesId: series.id, title: 'Three' })];

for (let i = 0; i < 40; i++) await post('/api/characters', { seriesId: series.id, name: `Character ${i}` });
for (let i = 0; i < 30; i++) await post('/api/locations', { seriesId: series.id, name: `Place ${i}` });
const { db } = app.deps.database;
const now = new Date().toISOString();
const stamps = { rev: 1, createdAt: now, updatedAt: now, deletedAt: null };
const text = chapterText(7, WORDS);
await db.transaction().execute(async (trx) => {
  for (let i = 0; i < CHAPTERS; i++) {
    const book = books[i % 3]!;
    await trx.insertInto('chapters').values({ ...stamps, id: newId(), seriesId: series.id, bookId: book.id, title: `Chapter ${i + 1}`, content: text, position: Math.floor(i / 3) + 1, wordCount: WORDS, status: i % 5 === 0 ? 'completed' : 'in_progress' } as never).execute();
  }
  const today = writingDay(new Date(), 'UTC');
  for (let d = 0; d < DAYS; d++) {
    await trx.insertInto('writingStats').values({ ...stamps, id: newId(), userId, day: addDays(today, -d), wordsWritten: 5_000 + d, wordsRemoved: 100, wordsPasted: 0, edits: 20 }).execute();
  }
});
const counted = await db.selectFrom('chapters').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
if (Number(counted?.n) !== CHAPTERS) verdicts.push(invalid('server', `seeded ${String(counted?.n)} chapters, expected ${CHAPTERS}`));

async function cpuPerRequest(run: () => Promise<number>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    const status = await run();
    if (status !== 200) throw new Error(`answered ${status}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}
const readBooks = async () => (await app.inject({ method: 'GET', url: `/api/series/${series.id}/books`, headers: { cookie } })).statusCode;
const check = async () => (await app.inject({ method: 'POST', url: '/api/check-achievements', headers: { cookie } })).statusCode;

await cpuPerRequest(readBooks);
await cpuPerRequest(check); // warm-up; the first check earns everything the seed allows
const serverRows: (string | number)[][] = [];
const checkCpu: number[] = [];
const booksCpu: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  booksCpu.push(await cpuPerRequest(readBooks));
  checkCpu.push(await cpuPerRequest(check));
  serverRows.push([`round ${r + 1}`, fmt.int(booksCpu.at(-1)!), fmt.int(checkCpu.at(-1)!), fmt.ratio(checkCpu.at(-1)! / booksCpu.at(-1)!)]);
}
const earned = await db.selectFrom('userAchievements').select('achievementId').where('userId', '=', userId).execute();
console.log(`\nserver: ${CHAPTERS} chapters × ${WORDS} words, ${DAYS} days of statistics, ${earned.length} achievements earned by the seed`);
console.log(table(['', 'GET books µs CPU/req', 'POST check µs CPU/req', 'ratio'], serverRows));
verdicts.push(atMost('check-achievements CPU', median(checkCpu) / median(booksCpu), 3, 'GET /api/series/{id}/books'));
await app.close();
fs.rmSync(dir, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------
// Device: in its own process (DOM types, fake-indexeddb), told what the server earned.

const child = spawnSync(process.execPath, ['--import', tsxLoader, path.join(import.meta.dirname, 'progress-device/device.ts'), String(ROUNDS), earned.map((e) => e.achievementId).join(',')], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const lines = (child.stdout ?? '').trim().split('\n');
const result = JSON.parse(lines.pop() ?? '{}') as { bareMs?: number; dashboardMs?: number };
console.log(lines.join('\n'));
if (child.status !== 0 || !result.bareMs || !result.dashboardMs) verdicts.push(invalid('dashboard data from IndexedDB', `device run failed (${String(child.status)})`));
else verdicts.push(atMost('dashboard data from IndexedDB', result.dashboardMs / result.bareMs, 1.5, 'bare Dexie reads of the same rows'));

console.log(`\n${describeLoad()}`);
finish(verdicts);
