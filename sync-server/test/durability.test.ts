/**
 * Crash durability of acknowledged writes: the real server (node + tsx, src/main.ts) on a data
 * directory, many writes in flight, SIGKILL at a random moment, restart on the same directory,
 * again and again. Every write that was answered 2xx must be there afterwards, and the database
 * must pass SQLite's integrity check (WAL + synchronous=FULL, docs/server.md#storage).
 *
 * DURABILITY_KILLS / DURABILITY_ACKS raise the bar for a longer soak.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.ts';

const KILLS = Number(process.env.DURABILITY_KILLS ?? 20);
const MIN_ACKED = Number(process.env.DURABILITY_ACKS ?? 1000);
const IN_FLIGHT = 24;
const serverDir = path.resolve(import.meta.dirname, '..');

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
  startMs: number;
}

async function startServer(dataDir: string, port: number): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: '' };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') delete env[name];
  const started = Date.now();
  // node --import tsx rather than the tsx CLI: one process, so SIGKILL hits the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is running at')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`server exited during start-up:\n${output}`)));
  });
  return { child, exited, startMs: Date.now() - started };
}

async function kill(server: Running): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

let current: Running | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-durability-'));
afterAll(async () => {
  if (current) await kill(current);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('durability under SIGKILL', () => {
  it(`loses no acknowledged write across ${KILLS} kills`, async () => {
    const began = Date.now();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const startTimes: number[] = [];
    const start = async () => {
      current = await startServer(dataDir, port);
      startTimes.push(current.startMs);
    };
    await start();

    const register = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'durable', password: 'correct horse battery', displayName: 'Durable' }),
    });
    expect(register.status).toBe(201);
    const cookie = register.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const headers = { cookie, 'content-type': 'application/json' };
    const post = async (url: string, body: object, method = 'POST') => {
      const res = await fetch(`${base}${url}`, { method, headers, body: JSON.stringify(body) });
      return { ok: res.ok, status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const series = await post('/api/series', { title: 'Durable saga' });
    const book = await post('/api/books', { seriesId: series.body.id, title: 'Book one' });
    expect(book.status).toBe(201);
    const targets: string[] = [];
    for (let i = 0; i < 4; i++) targets.push((await post('/api/chapters', { bookId: book.body.id, title: `target ${i}` })).body.id);

    /** Acknowledged creates (by title) and updates (chapter id, rev, content). */
    const ackedTitles = new Set<string>();
    const ackedUpdates: { id: string; rev: number; content: string }[] = [];
    let serial = 0;

    for (let cycle = 0; cycle < KILLS; cycle++) {
      let stop = false;
      // Kill once this cycle's random share of acknowledgements has arrived, plus a random delay:
      // writes are always in flight when the process dies.
      const remaining = Math.max(0, MIN_ACKED - ackedTitles.size - ackedUpdates.length);
      const target = Math.ceil(remaining / (KILLS - cycle)) + Math.floor(Math.random() * 30);
      let ackedThisCycle = 0;
      let reached!: () => void;
      const enough = new Promise<void>((resolve) => (reached = resolve));
      const writer = async () => {
        while (!stop) {
          const n = ++serial;
          try {
            if (n % 5 === 0) {
              const content = `update ${n}`;
              const res = await post(`/api/chapters/${targets[n % targets.length]}`, { content }, 'PUT');
              if (res.ok) ackedUpdates.push({ id: res.body.id, rev: res.body.rev, content });
              else if (res.status < 500) throw new Error(`rejected update: ${res.status} ${JSON.stringify(res.body)}`);
            } else {
              const title = `write ${n}`;
              const res = await post('/api/chapters', { bookId: book.body.id, title, content: `text of ${n}` });
              if (res.ok) ackedTitles.add(title);
              else if (res.status < 500) throw new Error(`rejected create: ${res.status} ${JSON.stringify(res.body)}`);
            }
            if (++ackedThisCycle >= target) reached();
          } catch (error) {
            if (String(error).includes('rejected')) throw error;
            return; // the connection died with the server: this write is simply not acknowledged
          }
        }
      };
      const writers = Array.from({ length: IN_FLIGHT }, writer);
      await enough;
      await new Promise((r) => setTimeout(r, Math.random() * 15));
      await kill(current!);
      stop = true;
      await Promise.all(writers);
      await start();
    }

    // After the last restart: everything acknowledged is there, through the API and on disk.
    const feed = await fetch(`${base}/api/sync/changes?since=0&limit=10000`, { headers });
    const page = (await feed.json()) as { changes: { chapters: { title: string }[] }; hasMore: boolean };
    const titles = new Set(page.changes.chapters.map((c) => c.title));
    const lostCreates = [...ackedTitles].filter((title) => !titles.has(title));

    current!.child.kill('SIGTERM');
    await current!.exited;
    current = undefined;
    const sqlite = new Database(path.join(dataDir, 'chronicler.db'), { readonly: true });
    const integrity = sqlite.pragma('integrity_check', { simple: true });
    const snapshot = sqlite.prepare("select snapshot from revisions where entity = 'chapters' and entity_id = ? and rev = ?").pluck();
    const lostUpdates = ackedUpdates.filter((u) => {
      const stored = snapshot.get(u.id, u.rev) as string | undefined;
      return !stored || (JSON.parse(stored) as { content: string }).content !== u.content;
    });
    sqlite.close();

    const acked = ackedTitles.size + ackedUpdates.length;
    const lost = lostCreates.length + lostUpdates.length;
    const seconds = (Date.now() - began) / 1000;
    const meanStart = startTimes.reduce((a, b) => a + b, 0) / startTimes.length;
    console.log(
      `durability: kills=${KILLS} acked=${acked} (creates ${ackedTitles.size}, updates ${ackedUpdates.length}) lost=${lost} ` +
        `integrity=${String(integrity)} seconds=${seconds.toFixed(1)} start-up mean=${meanStart.toFixed(0)} ms max=${Math.max(...startTimes)} ms`,
    );
    expect(page.hasMore).toBe(false);
    expect(acked).toBeGreaterThanOrEqual(MIN_ACKED);
    expect(lostCreates).toEqual([]);
    expect(lostUpdates).toEqual([]);
    expect(integrity).toBe('ok');
  }, 300_000);
});
