#!/usr/bin/env node
/**
 * Every test after type-checking and linting, in two lanes that run side by side (`pnpm test`):
 *
 *   server   the server's suite on SQLite and, with TEST_DATABASE_URL, on PostgreSQL — the longest
 *            single suite;
 *   browser  the other packages' and the web app's unit tests, then the web build, its size budget
 *            and the Playwright tests.
 *
 * One after the other they took ~30 + ~28 minutes on CI's 2 cores, much of it waiting (on
 * PostgreSQL, a browser, a child process) rather than computing; side by side the whole run stays
 * within CI's time. Each line is prefixed with its lane; a lane that fails fails the run, after the
 * other has finished (so its failures are seen too). LANES=server or LANES=browser runs one.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

const LANES = {
  server: 'pnpm --filter @chronicler/sync-server test',
  browser: 'pnpm -r --filter "!@chronicler/e2e" --filter "!@chronicler/bench" --filter "!@chronicler/sync-server" test && pnpm test:e2e',
};

const chosen = (process.env.LANES ?? Object.keys(LANES).join(',')).split(',').filter((name) => name in LANES);
const started = Date.now();
const minutes = (ms) => `${(ms / 60_000).toFixed(1)} min`;

function run(name) {
  return new Promise((resolve) => {
    const laneStart = Date.now();
    const child = spawn(LANES[name], { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
    }
    child.on('close', (code, signal) => {
      const ms = Date.now() - laneStart;
      process.stdout.write(`[${name}] lane ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${minutes(ms)}\n`);
      resolve({ name, ok: code === 0, ms });
    });
  });
}

const results = await Promise.all(chosen.map(run));
console.log(`\nlanes: ${results.map((r) => `${r.name} ${r.ok ? 'passed' : 'FAILED'} (${minutes(r.ms)})`).join(', ')}; all in ${minutes(Date.now() - started)}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
