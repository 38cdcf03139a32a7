/**
 * `pnpm --filter @chronicler/bench bench:isolation` — no author can slow another
 * (docs/decisions/0015-isolation.md). A prober author reads its own small series
 * (GET /api/series, ~4 ms) back to back; its p99 is measured idle and during each heavy operation of
 * another author, whose series holds three chapters of `--chars` characters (2.2 M by default):
 * - backup download (GET /api/backup), backup snapshot (POST /api/backups), restore of that
 *   snapshot (POST /api/backups/:id/restore), saving one such chapter (PUT /api/chapters/:id);
 * - an anonymous upload streamed to a protected route (POST /api/series with a 2 GB
 *   Content-Length, sent as fast as the socket takes it, at most `--upload-mb`): the bytes the
 *   client got in before the server closed the connection.
 * Targets: each p99 ≤ idle p99 + 50 ms; the refused upload closed before the client got 8 MiB
 * into the socket (the server reads ≤ 1 MiB, which sync-server/test/http/refuse-before-reading.test.ts
 * counts; the rest is the two kernels' buffers); a save with
 * `--streams` live streams open on its series (members' event streams, 6 per member) ≤ 1.3× the
 * same save with none. Medians of `--rounds`.
 *
 *   tsx isolation.ts [--chars 2200000] [--streams 200] [--rounds 3] [--upload-mb 256]
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient, type Row, createStory, signUp } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { type Verdict, atMost, finish, fmt, info, invalid, median, table } from './lib/report.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';
import { openDatabase, upgradePlan } from './browser/repository.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    chars: { type: 'string', default: '2200000' },
    streams: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    'upload-mb': { type: 'string', default: '256' },
  },
});
const CHARS = Number(flags.chars);
const STREAMS = Number(flags.streams);
const ROUNDS = Number(flags.rounds);
const UPLOAD_BOUND = Number(flags['upload-mb']) * 1024 * 1024;
const STREAMS_PER_MEMBER = 6;
const IDLE_MS = 2_000;

console.log(describeMachine());
console.log(describeLoad());

const p99 = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? NaN;
};

/** The prober's GET latencies while `work` runs (at least `minMs`). */
async function probeDuring(prober: ApiClient, work: () => Promise<unknown>, minMs = 0): Promise<number[]> {
  const latencies: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const at = performance.now();
      const res = await prober.request('GET', '/api/series');
      if (res.status !== 200) throw new Error(`probe answered ${res.status}`);
      latencies.push(performance.now() - at);
    }
  })();
  const started = performance.now();
  try {
    await work();
    const left = minMs - (performance.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  } finally {
    running = false;
    await probe;
  }
  return latencies;
}

/** Streams zero bytes after `head` as fast as the socket takes them; answers the bytes written before the server closed. */
function refusedUpload(url: string, head: string): Promise<{ sentBytes: number; closedEarly: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let done = false;
    const end = (closedEarly: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ sentBytes: sent, closedEarly });
    };
    socket.on('error', () => end(sent < UPLOAD_BOUND));
    socket.on('close', () => end(sent < UPLOAD_BOUND));
    socket.resume();
    const pump = () => {
      while (!done && sent < UPLOAD_BOUND) {
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      if (!done) setTimeout(() => end(false), 1_000);
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

let counter = 0;
async function member(baseUrl: string, owner: ApiClient, seriesId: string): Promise<ApiClient> {
  counter += 1;
  const client = new ApiClient(baseUrl);
  const username = `member_${process.pid}_${counter}`;
  const res = await client.request('POST', '/api/register', { username, password: 'correct horse battery staple', displayName: 'Member', email: `${username}@example.com` });
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  client.cookie = String(res.headers['set-cookie']).match(/chronicler_session=[^;]+/)![0];
  const invite = await owner.json<Row>('POST', `/api/collaboration/series/${seriesId}/invites`, { inviteeEmail: `${username}@example.com`, role: 'viewer' });
  await client.json('POST', `/api/collaboration/invites/${invite.id}/accept`);
  return client;
}

/** An event stream whose bytes are read and dropped; resolves once it answered. */
function openStream(baseUrl: string, cookie: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL('/api/sync/events', baseUrl), { headers: { cookie, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`events answered ${res.statusCode}`));
      res.resume();
      resolve(req);
    });
    req.on('error', () => undefined);
  });
}

const data = tempDataDir();
let server: ChildServer | null = null;
const verdicts: Verdict[] = [];
try {
  server = await startServer(SERVERS.chronicler, { env: serverEnv(data.dir) });
  const heavy = await createStory(server.url, 1);
  const database = await openDatabase(path.join(data.dir, 'chronicler.db'));
  await upgradePlan(database.db, heavy.userId, 'legendary');
  const chapterIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const content = `${'The lantern swung over the harbour wall. '.repeat(Math.ceil(CHARS / 41)).slice(0, CHARS - 2)}${i}.`;
    chapterIds.push((await heavy.client.json<Row>('POST', '/api/chapters', { bookId: heavy.bookIds[0], title: `Chapter ${i + 1}`, content })).id);
  }
  console.log(`seeded 3 chapters of ${fmt.int(CHARS)} characters`);

  const prober = new ApiClient(server.url);
  await signUp(prober);
  await prober.json('POST', '/api/series', { title: 'Probe' });

  let saveCount = 0;
  const saveBig = async () => {
    saveCount += 1;
    const content = `${'A new line at the harbour. '.repeat(Math.ceil(CHARS / 27)).slice(0, CHARS - 8)}${saveCount}`;
    const res = await heavy.client.request('PUT', `/api/chapters/${chapterIds[0]}`, { content });
    if (res.status !== 200) throw new Error(`save answered ${res.status}`);
  };
  let snapshotId = '';
  const operations: Array<[string, () => Promise<unknown>]> = [
    ['backup download', async () => {
      const res = await heavy.client.request('GET', '/api/backup');
      if (res.status !== 200) throw new Error(`backup answered ${res.status}`);
    }],
    ['backup snapshot', async () => {
      snapshotId = (await heavy.client.json<{ id: string }>('POST', '/api/backups')).id;
    }],
    ['restore', () => heavy.client.json('POST', `/api/backups/${snapshotId}/restore`)],
    ['save of a long chapter', saveBig],
  ];

  const idle: number[] = [];
  const during = new Map<string, number[]>(operations.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(p99(await probeDuring(prober, async () => undefined, IDLE_MS)));
    for (const [name, work] of operations) during.get(name)!.push(p99(await probeDuring(prober, work)));
  }
  const idleP99 = median(idle);
  const rows: Array<[string, string]> = [['idle', fmt.ms(idleP99)]];
  for (const [name, values] of during) {
    const value = median(values);
    rows.push([name, fmt.ms(value)]);
    const pass = value <= idleP99 + 50;
    verdicts.push({ pass, line: `${pass ? 'PASS' : 'FAIL'} another author's GET p99 during ${name}: ${fmt.ms(value)} (target ≤ idle ${fmt.ms(idleP99)} + 50 ms)` });
  }
  console.log(table(["another author's GET", 'p99 (median of rounds)'], rows));

  // The refused upload: anonymous, 2 GB claimed, to a protected route.
  const uploads: number[] = [];
  let closedEveryTime = true;
  const uploadP99: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let result = { sentBytes: 0, closedEarly: false };
    uploadP99.push(
      p99(
        await probeDuring(prober, async () => {
          result = await refusedUpload(server!.url, 'POST /api/series HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000000\r\n\r\n');
        }),
      ),
    );
    uploads.push(result.sentBytes);
    closedEveryTime &&= result.closedEarly;
  }
  // The client's count includes what the kernels buffered; the server read at most that.
  verdicts.push(info(`refused 2 GB upload: client got ${fmt.mb(median(uploads))} into the socket before the close; another author's GET p99 meanwhile ${fmt.ms(median(uploadP99))}`));
  verdicts.push(closedEveryTime ? atMost('refused upload, bytes in before the close', median(uploads) / (1024 * 1024), 8, 'MiB (server read ≤ 1 MiB; the rest is kernel buffers)') : invalid('refused upload', `the server read the whole ${fmt.mb(UPLOAD_BOUND)} without closing`));

  // A save with the live streams of members open on its series, against the same save with none.
  const timedSave = async () => {
    const at = performance.now();
    await saveBig();
    return performance.now() - at;
  };
  const without: number[] = [];
  for (let i = 0; i < ROUNDS; i++) without.push(await timedSave());
  const members: ApiClient[] = [];
  for (let i = 0; i < Math.ceil(STREAMS / STREAMS_PER_MEMBER); i++) members.push(await member(server.url, heavy.client, heavy.seriesId));
  const streams: http.ClientRequest[] = [];
  for (let i = 0; i < STREAMS; i++) streams.push(await openStream(server.url, members[Math.floor(i / STREAMS_PER_MEMBER)]!.cookie!));
  const withStreams: number[] = [];
  for (let i = 0; i < ROUNDS; i++) withStreams.push(await timedSave());
  for (const stream of streams) stream.destroy();
  console.log(table(['save of a long chapter', 'median'], [['no streams', fmt.ms(median(without))], [`${STREAMS} streams`, fmt.ms(median(withStreams))]]));
  verdicts.push(atMost(`save with ${STREAMS} live streams`, median(withStreams) / median(without), 1.3, 'the same save with none'));
  await database.close();
} catch (error) {
  verdicts.push(invalid('isolation', (error as Error).message));
} finally {
  await server?.stop();
  data.remove();
}
console.log(describeLoad());
finish(verdicts);
