/**
 * Two server processes on one fresh PostgreSQL database, as behind a load balancer
 * (docs/server.md#postgresql), for the browser test of two authors on two instances
 * (e2e/tests/two-instances.spec.ts). Environment: TEST_DATABASE_URL (a database on the server,
 * whose role may create databases), INSTANCE_PORTS ("3220,3221"), WEB_DIST, DATA_DIR.
 *
 * Makes the database `chronicler_e2e_<random>`, starts `src/main.ts` on each port at once (their
 * migrations race, as several instances starting together do), prints "instances ready on <database>" once both
 * answer their health check, and on SIGTERM/SIGINT stops both and drops the database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  console.error('TEST_DATABASE_URL is not set');
  process.exit(1);
}
const ports = (process.env.INSTANCE_PORTS ?? '3220,3221').split(',').map(Number);
const name = `chronicler_e2e_${crypto.randomBytes(6).toString('hex')}`;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// Code-point order for text, as the README's setup asks (docs/server.md#postgresql).
await admin((client) => client.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`));
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${name}`;

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = ports.map((port) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      // The same on every instance (README, "Running on PostgreSQL"): a session made on one is valid on the other.
      SESSION_SECRET: 'two-instances-e2e-session-secret-0123456789abcdef',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '10000',
    },
  }),
);

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await admin((client) => client.query(`drop database if exists ${name} with (force)`)).catch((error: unknown) => console.error(`could not drop ${name}: ${(error as Error).message}`));
  }
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));
for (const child of children) child.once('exit', (code) => void (stopping ? undefined : stop(code ?? 1)));

const deadline = Date.now() + 120_000;
for (const port of ports) {
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      console.error(`instance on port ${port} did not answer its health check`);
      await stop(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
console.log(`instances ready on ${name}`);
