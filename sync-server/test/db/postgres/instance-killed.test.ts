/**
 * Two real server processes (src/main.ts) on one PostgreSQL database, as behind a load balancer;
 * one of them is SIGKILLed at random moments while writes are in flight, and restarted. Every write
 * carries an Idempotency-Key; one that got no answer is sent again, with the same key, to the other
 * instance (what a load balancer's retry or the app's outbox does). Afterwards every acknowledged
 * write is there, and none was applied twice (docs/server.md#postgresql).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port.ts';
import { type OpenedDatabase, openDatabase } from '../../../src/db/database.ts';
import { testDatabaseUrl } from '../../../src/config/config.ts';
import { onPostgres } from '../../support/helpers.ts';

const KILLS = Number(process.env.INSTANCE_KILLS ?? 4);
const IN_FLIGHT = 8;
const serverDir = path.resolve(import.meta.dirname, '../../..');

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
}

async function startServer(databaseUrl: string, port: number): Promise<Running> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'one-secret-for-every-instance-0123456789abcdef',
    DATA_DIR: path.join(os.tmpdir(), 'chronicler-instances'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    WEB_DIST: '',
  };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS' || name.startsWith('TEST_')) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is running at')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`server exited during start-up:\n${output}`)));
  });
  return { child, exited };
}

let held: OpenedDatabase | undefined;
const running: Running[] = [];
afterAll(async () => {
  for (const server of running) server.child.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
  await held?.close();
});

describe.skipIf(!onPostgres)('an instance killed mid-write', () => {
  it(`loses no acknowledged write and applies none twice across ${KILLS} kills`, async () => {
    held = await openDatabase(testDatabaseUrl()!, { throwaway: true });
    const url = held.url!;
    const ports = [await freePort(), await freePort()];
    const servers: Running[] = [await startServer(url, ports[0]!), await startServer(url, ports[1]!)];
    running.push(...servers);
    const base = (i: number) => `http://127.0.0.1:${ports[i]}`;

    const register = await fetch(`${base(0)}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'twoinstances', password: 'correct horse battery', displayName: 'Two' }),
    });
    expect(register.status).toBe(201);
    const cookie = register.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const send = async (i: number, url: string, body: object, key: string) => {
      const res = await fetch(`${base(i)}${url}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const series = await send(1, '/api/series', { title: 'Across instances' }, 'series');
    expect(series.status, JSON.stringify(series.body)).toBe(201);
    const book = await send(0, '/api/books', { seriesId: series.body.id, title: 'Book one' }, 'book');
    expect(book.status).toBe(201);

    const acked = new Set<string>();
    let serial = 0;
    /** One write, sent until answered: first to instance `first`, then (no answer) to the other, same key. */
    const write = async (first: number) => {
      const n = ++serial;
      const title = `write ${n}`;
      for (let attempt = 0; attempt < 40; attempt++) {
        const target = (first + attempt) % 2;
        try {
          const res = await send(target, '/api/chapters', { bookId: book.body.id, title, content: `text ${n}` }, `k${n}`);
          if (res.status === 201) return void acked.add(title);
          if (res.status < 500) throw new Error(`rejected: ${res.status} ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (String(error).includes('rejected')) throw error;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${title} was never answered`);
    };

    for (let cycle = 0; cycle < KILLS; cycle++) {
      const victim = cycle % 2;
      let stop = false;
      const writers = Array.from({ length: IN_FLIGHT }, async (_, w) => {
        while (!stop) await write(w % 2);
      });
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 400));
      servers[victim]!.child.kill('SIGKILL');
      await servers[victim]!.exited;
      await new Promise((r) => setTimeout(r, 200));
      stop = true;
      await Promise.all(writers);
      servers[victim] = await startServer(url, ports[victim]!);
      running.push(servers[victim]!);
    }

    const rows = await held.db.selectFrom('chapters').select('title').where('bookId', '=', book.body.id).execute();
    const counts = new Map<string, number>();
    for (const { title } of rows) counts.set(title, (counts.get(title) ?? 0) + 1);
    const lost = [...acked].filter((title) => !counts.has(title));
    const twice = [...counts].filter(([, n]) => n > 1).map(([title]) => title);
    console.log(`instance kills: kills=${KILLS} acked=${acked.size} rows=${rows.length} lost=${lost.length} twice=${twice.length}`);
    expect(acked.size).toBeGreaterThan(KILLS * 5);
    expect(lost).toEqual([]);
    expect(twice).toEqual([]);
  }, 300_000);
});
