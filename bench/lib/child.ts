/**
 * Servers under test run in their own process (the machine has 2 cores: one for the server, one
 * for the load generator in the parent). A child prints `READY {"url": ...}` once it listens;
 * SIGTERM closes it cleanly. Over the IPC channel the parent asks for its CPU time (a figure that
 * other load on the machine disturbs less than throughput) and for a profile of one workload.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import readline from 'node:readline';
import type { BenchMessage, BenchReply } from './serve.ts';

export interface ChildServer {
  url: string;
  pid: number;
  /** User + system CPU time the child has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  /** The figures the server keeps about itself so far (serveForBench `counters`), if any. */
  counters(): Promise<Record<string, number>>;
  /** Runs `work` while the child records a CPU profile into `file` (a .cpuprofile). */
  profile<T>(file: string, work: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

const READY = 'READY ';
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface StartOptions {
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

/** Starts `script` (a .ts file) with tsx and resolves once it listens. */
export function startServer(script: string, options: StartOptions = {}): Promise<ChildServer> {
  const timeoutMs = options.readyTimeoutMs ?? 30_000;
  const child = spawn(process.execPath, ['--import', tsxLoader, script], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with code ${code} before it was ready`));
    });
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith(READY)) return void process.stdout.write(`[${script}] ${line}\n`);
      clearTimeout(timer);
      const { url } = JSON.parse(line.slice(READY.length)) as { url: string };
      resolve({
        url,
        pid: child.pid!,
        cpuMicros: async () => (await ask(child, { id: nextMessageId++, type: 'cpu-usage' })).cpuMicros!,
        counters: async () => (await ask(child, { id: nextMessageId++, type: 'cpu-usage' })).counters ?? {},
        profile: (file, work) => profileChild(child, file, work),
        stop: () => stopChild(child, exited),
      });
    });
  });
}

let nextMessageId = 1;
function ask(child: ChildProcess, message: BenchMessage): Promise<BenchReply> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: BenchReply) => {
      if (reply.id !== message.id) return;
      child.off('message', onMessage);
      if (reply.error) reject(new Error(reply.error));
      else resolve(reply);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

async function profileChild<T>(child: ChildProcess, file: string, work: () => Promise<T>): Promise<T> {
  await ask(child, { id: nextMessageId++, type: 'profile-start' });
  try {
    return await work();
  } finally {
    await ask(child, { id: nextMessageId++, type: 'profile-stop', file });
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
