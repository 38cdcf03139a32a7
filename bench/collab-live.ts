/**
 * Collaboration (issue 13), two targets against baselines measured in the same run:
 *
 * 1. live: an editor saves a chapter of a shared series (PUT /api/chapters/{id} over real HTTP);
 *    20 members are connected, each with the REAL sync engine over its own IndexedDB
 *    (fake-indexeddb) and its own SSE stream (GET /api/sync/events) that makes it pull on every
 *    poke. Timed: from the editor sending the save to the change being in another member's
 *    IndexedDB (one observing member; the slowest of the 20 is printed too). p95 over 200 edits.
 *    Baseline: the bare round trip of GET /api/user on the same loopback, interleaved with the
 *    edits. Target: p95 ≤ 5× the baseline's p95 (both printed in ms).
 * 2. feed: a member of 20 shared series walks GET /api/sync/changes from 0; baseline: the same
 *    series' rows read and serialised straight from better-sqlite3. Target ≤ 3× (the bootstrap
 *    target of changes-bootstrap.ts).
 *
 *   tsx collab-live.ts [--members 20] [--edits 200] [--series 20] [--chapters 25] [--rounds 5]
 */
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  type ChroniclerDb,
  type SyncEngine,
  createSyncEngine,
  createSyncStatusStore,
  openChroniclerDb,
} from '@chronicler/sync-client';
import { ApiClient, type Row } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { chapterText } from './lib/prose.ts';
import { type Verdict, atMost, finish, fmt, invalid, median, table } from './lib/report.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    members: { type: 'string', default: '20' },
    edits: { type: 'string', default: '200' },
    series: { type: 'string', default: '20' },
    chapters: { type: 'string', default: '25' },
    rounds: { type: 'string', default: '5' },
  },
});
const MEMBERS = Number(flags.members);
const EDITS = Number(flags.edits);
const SERIES = Number(flags.series);
const CHAPTERS = Number(flags.chapters);
const ROUNDS = Number(flags.rounds);
const ARRIVAL_TIMEOUT_MS = 15_000;

const p95 = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
};

let counter = 0;
async function register(baseUrl: string, name: string): Promise<{ client: ApiClient; userId: string; email: string }> {
  counter += 1;
  const client = new ApiClient(baseUrl);
  const username = `${name}_${process.pid}_${counter}`;
  const email = `${username}@example.com`;
  const res = await client.request('POST', '/api/register', { username, password: 'correct horse battery staple', displayName: name, email });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${res.body.toString('utf8')}`);
  client.cookie = String(res.headers['set-cookie']).match(/chronicler_session=[^;]+/)![0];
  return { client, userId: (JSON.parse(res.body.toString('utf8')) as { id: string }).id, email };
}

async function join(owner: ApiClient, member: { client: ApiClient; email: string }, seriesId: string, role: string): Promise<void> {
  const invite = await owner.json<Row>('POST', `/api/collaboration/series/${seriesId}/invites`, { inviteeEmail: member.email, role });
  await member.client.json('POST', `/api/collaboration/invites/${invite.id}/accept`);
}

/** A connected member: the real engine over its own IndexedDB, pulling on every SSE poke. */
interface Device {
  db: ChroniclerDb;
  engine: SyncEngine;
  stream: http.ClientRequest;
  /** Called after every pull. */
  onPulled: () => void;
}

function connect(baseUrl: string, cookie: string, userId: string): Device {
  const db = openChroniclerDb(userId, { indexedDB: new IDBFactory(), IDBKeyRange });
  const engine = createSyncEngine({
    db,
    fetch: (url, init) => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } }),
    baseUrl,
    locks: null,
    eventSource: null,
    status: createSyncStatusStore(),
    platform: { window: null, document: null },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined },
  });
  const device = { db, engine, onPulled: () => undefined } as unknown as Device;
  // One pull at a time; a poke during a pull asks for one more.
  let pulling = false;
  let again = false;
  const pull = async () => {
    if (pulling) {
      again = true;
      return;
    }
    pulling = true;
    do {
      again = false;
      await engine.pull();
      device.onPulled();
    } while (again);
    pulling = false;
  };
  device.stream = http.get(new URL('/api/sync/events', baseUrl), { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const events = buffer.split('\n\n');
      buffer = events.pop() ?? '';
      if (events.some((e) => e.includes('data: {"seq"'))) void pull();
    });
  });
  return device;
}

async function liveBench(server: ChildServer, data: string): Promise<{ verdict: Verdict; rows: string[][] }> {
  const owner = await register(server.url, 'owner');
  const sqlite = new Database(path.join(data, 'chronicler.db'));
  sqlite.pragma('busy_timeout = 5000');
  sqlite.prepare(`UPDATE users SET plan = 'loremaster' WHERE id = ?`).run(owner.userId);
  const series = await owner.client.json<Row>('POST', '/api/collaboration/series', { name: 'The Shared Saga', description: 'Twenty authors, one saga.' });
  const book = await owner.client.json<Row>('POST', '/api/books', { seriesId: series.id, title: 'Book One' });
  const chapter = await owner.client.json<Row>('POST', '/api/chapters', { bookId: book.id, title: 'Together', content: chapterText(1, 1000) });

  const editor = await register(server.url, 'editor');
  await join(owner.client, editor, series.id, 'editor');
  const devices: Device[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const member = await register(server.url, `member${i}`);
    await join(owner.client, member, series.id, i % 2 === 0 ? 'viewer' : 'editor');
    const device = connect(server.url, member.client.cookie!, member.userId);
    await device.engine.pull();
    devices.push(device);
  }
  sqlite.close();
  console.log(`${MEMBERS} members connected (engine + IndexedDB + SSE each), chapter of 1,000 words`);

  const base = chapterText(1, 1000);
  const observer: number[] = [];
  const slowest: number[] = [];
  const bare: number[] = [];
  let missed = 0;
  for (let i = 0; i <= EDITS; i++) {
    const marker = `edit-${i}-${Math.random().toString(36).slice(2, 8)}`;
    const arrived = new Map<number, number>();
    let start = 0;
    const all = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ARRIVAL_TIMEOUT_MS);
      devices.forEach((device, index) => {
        device.onPulled = () => {
          if (arrived.has(index)) return;
          void device.db.chapters.get(chapter.id).then((row) => {
            if (!row?.content.includes(marker) || arrived.has(index)) return;
            arrived.set(index, performance.now() - start);
            if (arrived.size === devices.length) {
              clearTimeout(timer);
              resolve();
            }
          });
        };
      });
    });
    start = performance.now();
    await editor.client.json('PUT', `/api/chapters/${chapter.id}`, { content: `${marker}\n\n${base}` });
    await all;
    // The bare round trip, interleaved so both see the same load.
    const t = performance.now();
    await owner.client.json('GET', '/api/user');
    const rtt = performance.now() - t;
    if (i === 0) continue; // warm-up
    bare.push(rtt);
    if (arrived.size < devices.length) missed += 1;
    observer.push(arrived.get(0) ?? ARRIVAL_TIMEOUT_MS);
    slowest.push(Math.max(...devices.map((_, index) => arrived.get(index) ?? ARRIVAL_TIMEOUT_MS)));
  }
  for (const device of devices) {
    device.stream.destroy();
    device.engine.stop();
    device.db.close();
  }
  editor.client.close();
  owner.client.close();

  const ratio = p95(observer) / p95(bare);
  const rows = [
    ['bare GET /api/user round trip', fmt.ms(median(bare)), fmt.ms(p95(bare)), '1×'],
    ['save → observer member’s IndexedDB', fmt.ms(median(observer)), fmt.ms(p95(observer)), fmt.ratio(ratio)],
    [`save → slowest of ${MEMBERS} members`, fmt.ms(median(slowest)), fmt.ms(p95(slowest)), fmt.ratio(p95(slowest) / p95(bare))],
  ];
  const verdict =
    missed > 0
      ? invalid('live', `${missed} of ${EDITS} edits did not reach every member within ${ARRIVAL_TIMEOUT_MS} ms`)
      : atMost('live', ratio, 5, `bare GET /api/user round trip (p95 ${fmt.ms(p95(bare))}; save→member p95 ${fmt.ms(p95(observer))})`);
  return { verdict, rows };
}

async function feedBench(server: ChildServer, data: string): Promise<{ verdict: Verdict; rows: string[][] }> {
  const owner = await register(server.url, 'feedowner');
  const reader = await register(server.url, 'reader');
  const sqlite = new Database(path.join(data, 'chronicler.db'));
  sqlite.pragma('busy_timeout = 5000');
  sqlite.prepare(`UPDATE users SET plan = 'loremaster' WHERE id = ?`).run(owner.userId);
  const seriesIds: string[] = [];
  for (let s = 0; s < SERIES; s++) {
    const series = await owner.client.json<Row>('POST', '/api/collaboration/series', { name: `Shared ${s + 1}`, description: 'One of twenty shared series.' });
    const book = await owner.client.json<Row>('POST', '/api/books', { seriesId: series.id, title: 'Book One' });
    for (let c = 0; c < CHAPTERS; c++) {
      await owner.client.json('POST', '/api/chapters', { bookId: book.id, title: `Chapter ${c + 1}`, content: chapterText(s * 1000 + c, 1000) });
    }
    await join(owner.client, reader, series.id, 'viewer');
    seriesIds.push(series.id);
  }
  const tables = [
    ['series', 'id'], ['books', 'series_id'], ['chapters', 'series_id'], ['characters', 'series_id'], ['character_relationships', 'series_id'],
    ['locations', 'series_id'], ['timeline_events', 'series_id'], ['chapter_conflicts', 'series_id'],
  ] as const;
  const marks = seriesIds.map(() => '?').join(',');
  const statements = tables.map(([t, c]) => sqlite.prepare(`SELECT * FROM ${t} WHERE ${c} IN (${marks})`));
  const readAndSerialise = () => {
    const start = performance.now();
    const rows = statements.map((s) => s.all(...seriesIds));
    JSON.stringify(rows);
    return performance.now() - start;
  };
  const walk = async () => {
    const start = performance.now();
    let chapters = 0;
    for (let since = 0, more = true; more; ) {
      const res = await reader.client.request('GET', `/api/sync/changes?since=${since}`);
      if (res.status !== 200) throw new Error(`the feed answered ${res.status}`);
      const page = JSON.parse(res.body.toString('utf8')) as { changes: { chapters: unknown[] }; cursor: number; hasMore: boolean };
      chapters += page.changes.chapters.length;
      since = page.cursor;
      more = page.hasMore;
    }
    return { ms: performance.now() - start, chapters };
  };
  const warm = await walk();
  readAndSerialise();
  const feed: number[] = [];
  const baseline: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    baseline.push(readAndSerialise());
    feed.push((await walk()).ms);
  }
  sqlite.close();
  owner.client.close();
  reader.client.close();
  const ratio = median(feed) / median(baseline);
  const complete = warm.chapters === SERIES * CHAPTERS;
  return {
    verdict: complete
      ? atMost(`feed of a member of ${SERIES} series`, ratio, 3, 'read+stringify in better-sqlite3')
      : invalid(`feed of a member of ${SERIES} series`, `the feed delivered ${warm.chapters} of ${SERIES * CHAPTERS} chapters`),
    rows: [
      ['read+stringify (better-sqlite3)', fmt.ms(median(baseline)), '', '1×'],
      [`feed walk, member of ${SERIES} series (HTTP)`, fmt.ms(median(feed)), '', fmt.ratio(ratio)],
    ],
  };
}

async function main(): Promise<void> {
  console.log(`collab-live — ${describeMachine()}`);
  console.log(`${describeLoad()} at start\n`);
  const data = tempDataDir();
  let server: ChildServer | null = null;
  try {
    // 24 sign-ups from one address: more than the front door's 20 a minute (not what this measures).
    server = await startServer(SERVERS.chronicler, { env: { ...serverEnv(data.dir), RATE_LIMIT_PER_MINUTE: '1000' } });
    const live = await liveBench(server, data.dir);
    const feed = await feedBench(server, data.dir);
    console.log('');
    console.log(table(['measure', 'median', 'p95', 'ratio'], [...live.rows, ...feed.rows]));
    console.log(`\n${describeLoad()} at end`);
    finish([live.verdict, feed.verdict]);
  } finally {
    await server?.stop();
    data.remove();
  }
}

await main();
