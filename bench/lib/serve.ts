/**
 * The child side of lib/child.ts: listen on loopback, announce the address, close on SIGTERM, and
 * answer the parent's questions over IPC — its CPU time so far, and a CPU profile between
 * `profile-start` and `profile-stop` (so a profile covers one measured workload, not start-up).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

export interface Listenable {
  listen(options: { host: string; port: number }): Promise<string>;
  close(): Promise<unknown>;
}

export type BenchMessage =
  | { id: number; type: 'cpu-usage' }
  | { id: number; type: 'profile-start' }
  | { id: number; type: 'profile-stop'; file: string };
export type BenchReply = { id: number; error?: string; cpuMicros?: number; counters?: Record<string, number> };

/** `counters`: figures the server keeps about itself (e.g. writes per COMMIT), read with its CPU time. */
export async function serveForBench(app: Listenable, counters?: () => Record<string, number>): Promise<void> {
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  const session = new Session();
  process.on('message', (message: BenchMessage) => {
    answer(session, message, counters).then(
      (reply) => process.send?.(reply),
      (error: unknown) => process.send?.({ id: message.id, error: String(error) } satisfies BenchReply),
    );
  });
  console.log(`READY ${JSON.stringify({ url })}`);
}

async function answer(session: Session, message: BenchMessage, counters?: () => Record<string, number>): Promise<BenchReply> {
  switch (message.type) {
    case 'cpu-usage': {
      const { user, system } = process.cpuUsage();
      return { id: message.id, cpuMicros: user + system, ...(counters ? { counters: counters() } : {}) };
    }
    case 'profile-start':
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return { id: message.id };
    case 'profile-stop': {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(message.file, JSON.stringify(profile));
      session.disconnect();
      return { id: message.id };
    }
  }
}
