/**
 * `pnpm --filter @chronicler/bench bench:media` — pictures on the server
 * (sync-server/src/media/, docs/decisions/0022-pictures-on-the-server.md), each against a baseline
 * measured in the same run:
 * - serving: authenticated GET /api/series/{id}/media/{sha256} of a picture the server has served
 *   before (its bytes in the server's memory cache; the session, the series access and the picture's
 *   use are still read per request), req/s under autocannon, against bare Fastify serving the same
 *   bytes from memory (servers/bare-picture.ts). Target ≥ 0.5×.
 * - upload: PUT of a new ~300 KB picture (checks before the body, the bounded read, sniffing, the
 *   header walk, SHA-256, the allowance, the write under synchronous=FULL), one at a time over
 *   keep-alive HTTP, against the same bytes written straight to a SQLite file with the production
 *   pragmas (WAL, synchronous=FULL), one insert per transaction. Target ≤ 3×, median per picture.
 *
 * The real server runs in a child process on a file database; the author's plan is raised to
 * Wordsmith (multimedia) in the database after sign-up. Rounds alternate which side goes first.
 *
 *   tsx media.ts [--rounds 3] [--duration 5] [--warmup 1] [--connections 10] [--uploads 40] [--kb 300]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { pngBytes } from '@chronicler/schema/media/testing';
import { type ApiClient, createStory } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { type Sample, load } from './lib/http-load.ts';
import { type Verdict, atLeast, atMost, finish, fmt, info, invalid, median, table } from './lib/report.ts';
import { BENCH_DIR, SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    uploads: { type: 'string', default: '40' },
    kb: { type: 'string', default: '300' },
  },
});
const ROUNDS = Number(flags.rounds);
const DURATION_S = Number(flags.duration);
const WARMUP_S = Number(flags.warmup);
const CONNECTIONS = Number(flags.connections);
const UPLOADS = Number(flags.uploads);
const KB = Number(flags.kb);

console.log(describeMachine());
console.log(describeLoad());

const sha = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** A real picture of about `kb` KB (a PNG of stored deflate blocks: its size is its pixels), of colour `n`. */
function picture(n: number): Uint8Array {
  const side = Math.round(Math.sqrt((KB * 1024) / 3));
  return pngBytes({ width: side, height: side, rgb: [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff] });
}

async function put(client: ApiClient, seriesId: string, bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  const res = await client.request('PUT', `/api/series/${seriesId}/media/${sha(bytes)}`, undefined, { 'content-type': 'image/png' }, Buffer.from(bytes));
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
  return performance.now() - started;
}

/** The same bytes into a SQLite file with the production pragmas, one insert per transaction. */
function directWrites(file: string, pictures: readonly Uint8Array[]): number[] {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('create table if not exists pictures (sha256 text primary key, data blob not null)');
  const insert = db.prepare('insert into pictures (sha256, data) values (?, ?)');
  const times: number[] = [];
  for (const bytes of pictures) {
    const started = performance.now();
    const hash = sha(bytes);
    db.transaction(() => insert.run(hash, Buffer.from(bytes)))();
    times.push(performance.now() - started);
  }
  db.close();
  return times;
}

const data = tempDataDir();
const baselineDir = tempDataDir();
const servers: ChildServer[] = [];
const verdicts: Verdict[] = [];
try {
  const served = picture(1);
  const pictureFile = path.join(baselineDir.dir, 'picture.png');
  fs.writeFileSync(pictureFile, served);
  const chronicler = await startServer(SERVERS.chronicler, { env: serverEnv(data.dir) });
  servers.push(chronicler);
  const bare = await startServer(path.join(BENCH_DIR, 'servers/bare-picture.ts'), { env: { BENCH_PICTURE_FILE: pictureFile } });
  servers.push(bare);

  const story = await createStory(chronicler.url, 1);
  const db = new Database(path.join(data.dir, 'chronicler.db'));
  db.pragma('busy_timeout = 5000');
  db.prepare("update users set plan = 'wordsmith' where id = ?").run(story.userId);
  db.close();
  await put(story.client, story.seriesId, served);
  const url = `/api/series/${story.seriesId}/media/${sha(served)}`;
  const check = await story.client.request('GET', url);
  if (check.status !== 200 || !check.body.equals(Buffer.from(served))) throw new Error(`GET ${url} answered ${check.status}`);

  const serve = (side: 'chronicler' | 'bare', seconds: number): Promise<Sample> =>
    side === 'chronicler'
      ? load(chronicler, seconds, [{ method: 'GET', path: url }], { cookie: story.client.cookie! }, { connections: CONNECTIONS })
      : load(bare, seconds, [{ method: 'GET', path: '/picture' }], {}, { connections: CONNECTIONS });

  const serving: Array<{ ours: Sample; bare: Sample }> = [];
  const uploads: Array<{ ours: number; direct: number }> = [];
  let colour = 2;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['chronicler', 'bare'] as const) : (['bare', 'chronicler'] as const);
    const samples: Partial<Record<'chronicler' | 'bare', Sample>> = {};
    for (const side of order) {
      await serve(side, WARMUP_S);
      samples[side] = await serve(side, DURATION_S);
    }
    serving.push({ ours: samples.chronicler!, bare: samples.bare! });

    const fresh = Array.from({ length: UPLOADS }, () => picture(colour++));
    const again = Array.from({ length: UPLOADS }, () => picture(colour++));
    const upload = async () => {
      const times: number[] = [];
      for (const bytes of fresh) times.push(await put(story.client, story.seriesId, bytes));
      return median(times);
    };
    const direct = () => median(directWrites(path.join(baselineDir.dir, `direct-${round}.db`), again));
    if (round % 2 === 0) uploads.push({ ours: await upload(), direct: direct() });
    else {
      const d = direct();
      uploads.push({ ours: await upload(), direct: d });
    }
  }

  console.log(
    table(
      ['round', 'GET req/s', 'bare req/s', 'ratio', 'CPU µs/req', 'upload ms', 'direct ms', 'ratio'],
      serving.map((s, i) => [
        i + 1,
        fmt.int(s.ours.rps),
        fmt.int(s.bare.rps),
        fmt.ratio(s.ours.rps / s.bare.rps),
        fmt.int(s.ours.cpuPerRequest),
        fmt.ms(uploads[i]!.ours),
        fmt.ms(uploads[i]!.direct),
        fmt.ratio(uploads[i]!.ours / uploads[i]!.direct),
      ]),
    ),
  );
  const failed = serving.some((s) => s.ours.non2xx + s.ours.errors + s.bare.non2xx + s.bare.errors > 0);
  if (failed) verdicts.push(invalid('serving', 'some requests failed'));
  else verdicts.push(atLeast('serving a picture', median(serving.map((s) => s.ours.rps / s.bare.rps)), 0.5, 'bare Fastify serving the bytes from memory'));
  verdicts.push(atMost('uploading a picture', median(uploads.map((u) => u.ours / u.direct)), 3, `the same ${KB} KB written to SQLite directly`));
  verdicts.push(info(`picture ${fmt.int(served.length)} bytes; ${fmt.int(median(serving.map((s) => s.ours.cpuPerRequest)))} µs of server CPU per GET`));
} catch (error) {
  verdicts.push(invalid('media', String(error)));
} finally {
  for (const server of servers) await server.stop();
  data.remove();
  baselineDir.remove();
  console.log(describeLoad());
  finish(verdicts);
}
