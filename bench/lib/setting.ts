/** What every bench prints first and needs around its servers: the machine, a temp data dir. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const BENCH_DIR = path.resolve(import.meta.dirname, '..');
export const SERVERS = {
  bare: path.join(BENCH_DIR, 'servers/bare-fastify.ts'),
  chronicler: path.join(BENCH_DIR, 'servers/chronicler.ts'),
  bareRelay: path.join(BENCH_DIR, 'servers/bare-relay.ts'),
};

export function describeMachine(): string {
  let commit = 'unknown';
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: BENCH_DIR, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', '../sync-server', '../packages'], { cwd: BENCH_DIR, encoding: 'utf8' }).trim();
    commit = dirty ? `${head} + uncommitted server changes` : head;
  } catch {
    // not a git checkout: the figures still stand, only unlabelled
  }
  return `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, commit ${commit}`;
}

/**
 * Other work on the machine disturbs every figure here; ratios within one run cancel some of it.
 * The load average says how much there was.
 */
export function describeLoad(): string {
  const [one, five] = os.loadavg();
  const cores = os.cpus().length;
  const busy = one! > cores * 0.75 ? ` — the machine is busy with other work (${cores} cores); figures will be noisy` : '';
  return `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min)${busy}`;
}

/** The command line's flags: `pnpm --filter … bench:x -- --rounds 5` passes a leading `--` through. */
export function benchArgs(): string[] {
  const args = process.argv.slice(2);
  return args[0] === '--' ? args.slice(1) : args;
}

/** A fresh DATA_DIR for the real server (file database, session secret), removed afterwards. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-bench-'));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The real server's environment: production config from DATA_DIR, API only, no request logs. */
export function serverEnv(dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, WEB_DIST: '', LOG_LEVEL: 'silent', NODE_ENV: 'production' };
}
