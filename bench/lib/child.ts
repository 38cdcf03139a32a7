/**
 * Servers under test run in their own process (the machine has 2 cores: one for the server, one
 * for the load generator in the parent). A child prints `READY {"url": ...}` once it listens;
 * SIGTERM closes it cleanly, which also lets `--cpu-prof` write its profile.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import readline from 'node:readline';

export interface ChildServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const READY = 'READY ';
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface StartOptions {
  env?: Record<string, string>;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/x']. */
  nodeArgs?: string[];
  readyTimeoutMs?: number;
}

/** Starts `script` (a .ts file) with tsx and resolves once it listens. */
export function startServer(script: string, options: StartOptions = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', tsxLoader, script], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start within ${options.readyTimeoutMs ?? 30_000} ms`));
    }, options.readyTimeoutMs ?? 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with code ${code} before it was ready`));
    });
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith(READY)) return void process.stdout.write(`[${script}] ${line}\n`);
      clearTimeout(timer);
      const { url } = JSON.parse(line.slice(READY.length)) as { url: string };
      resolve({ url, pid: child.pid!, stop: () => stopChild(child, exited) });
    });
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
