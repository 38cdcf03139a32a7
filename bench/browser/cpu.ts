/**
 * CPU time of the processes a bench started (Chromium's browser, renderer, network and storage
 * processes; the server child), from /proc. On a machine shared with other work, wall time
 * includes waiting for a core; CPU time is the work itself, and other load disturbs it less.
 * Linux only: elsewhere every figure is NaN and the reports say so.
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, in ms. */
  cpuMs: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { pid, ppid, cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** CPU time so far of every live descendant of `root`, split by the subtree they belong to. */
export function descendantCpu(root: number = process.pid): Map<number, number> {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return new Map();
  }
  const stats = new Map<number, ProcStat>();
  for (const name of entries) {
    const stat = readStat(Number(name));
    if (stat) stats.set(stat.pid, stat);
  }
  /** The child of `root` whose subtree `pid` is in, or null when it is not a descendant. */
  const topOf = (pid: number): number | null => {
    let current = stats.get(pid);
    for (let depth = 0; current && depth < 64; depth++) {
      if (current.ppid === root) return current.pid;
      current = stats.get(current.ppid);
    }
    return null;
  };
  const byTop = new Map<number, number>();
  for (const stat of stats.values()) {
    const top = topOf(stat.pid);
    if (top !== null) byTop.set(top, (byTop.get(top) ?? 0) + stat.cpuMs);
  }
  return byTop;
}

/** CPU ms used by the server child (`serverPid`) and by everything else started here (Chromium). */
export function cpuSnapshot(serverPid: number): { server: number; browser: number } {
  const byTop = descendantCpu();
  if (byTop.size === 0) return { server: NaN, browser: NaN };
  let server = 0;
  let browser = 0;
  for (const [top, ms] of byTop) {
    if (top === serverPid) server += ms;
    else browser += ms;
  }
  return { server, browser };
}

/** Chromium's processes by role, from their command line (`--type=…`, `--utility-sub-type=…`). */
export type ChromiumRole = 'renderer' | 'browser' | 'network' | 'storage' | 'gpu' | 'other';

function roleOf(pid: number): ChromiumRole {
  let cmdline = '';
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return 'other';
  }
  if (!/chrom/i.test(cmdline)) return 'other';
  const type = /--type=(\S+)/.exec(cmdline)?.[1];
  if (!type) return 'browser';
  if (type === 'renderer') return 'renderer';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'utility') {
    if (/NetworkService/i.test(cmdline)) return 'network';
    if (/StorageService/i.test(cmdline)) return 'storage';
  }
  return 'other';
}

/** CPU ms so far of every live Chromium process started here, summed by role. */
export function chromiumCpuByRole(serverPid: number): Record<ChromiumRole, number> {
  const out: Record<ChromiumRole, number> = { renderer: 0, browser: 0, network: 0, storage: 0, gpu: 0, other: 0 };
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return out;
  }
  const stats = new Map<number, ProcStat>();
  for (const name of entries) {
    const stat = readStat(Number(name));
    if (stat) stats.set(stat.pid, stat);
  }
  for (const stat of stats.values()) {
    // A descendant of this process that is not the server (nor under it).
    let current: ProcStat | undefined = stat;
    let mine = false;
    for (let depth = 0; current && depth < 64; depth++) {
      if (current.pid === serverPid) break;
      if (current.ppid === process.pid) {
        mine = true;
        break;
      }
      current = stats.get(current.ppid);
    }
    if (mine) out[roleOf(stat.pid)] += stat.cpuMs;
  }
  return out;
}

export interface CpuUse {
  server: number;
  browser: number;
  /** The browser's share by process role. */
  roles: Record<ChromiumRole, number>;
}

/** Runs `work` and answers the CPU ms the server and the browser (by role) used meanwhile. */
export async function measureCpu<T>(serverPid: number, work: () => Promise<T>): Promise<CpuUse & { result: T }> {
  const before = cpuSnapshot(serverPid);
  const rolesBefore = chromiumCpuByRole(serverPid);
  const result = await work();
  const after = cpuSnapshot(serverPid);
  const rolesAfter = chromiumCpuByRole(serverPid);
  const roles = Object.fromEntries(Object.entries(rolesAfter).map(([role, ms]) => [role, ms - rolesBefore[role as ChromiumRole]])) as Record<ChromiumRole, number>;
  return { result, server: after.server - before.server, browser: after.browser - before.browser, roles };
}

/**
 * Waits until the browser is quiet — its processes used under `threshold` of one core over a
 * 250 ms window (IndexedDB compacts and deletes in the background after big writes) — or
 * `maxMs` passed. Answers how long it waited.
 */
export async function settle(serverPid: number, { threshold = 0.1, maxMs = 5_000 } = {}): Promise<number> {
  const start = performance.now();
  let before = cpuSnapshot(serverPid).browser;
  if (Number.isNaN(before)) return 0;
  while (performance.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuSnapshot(serverPid).browser;
    if (now - before < 250 * threshold) break;
    before = now;
  }
  return performance.now() - start;
}
