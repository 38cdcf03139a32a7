/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time per function and
 * per package/file. Used with `--profile` to explain a missed target with figures.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fmt, table } from './report.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a script lives, short: a package name, a sync-server file, or a node internal. */
function origin(url: string): string {
  if (url === '') return '(native/vm)';
  if (url.startsWith('node:')) return 'node:internal';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1]!;
  const ours = /\/(sync-server\/src\/.+|packages\/[^/]+\/src\/.+|bench\/.+)$/.exec(url);
  return ours ? ours[1]! : url;
}

function ourCode(place: string): boolean {
  return place.startsWith('sync-server/') || place.startsWith('packages/');
}

export interface SummaryOptions {
  top?: number;
  /** Requests (or pages) served while profiling: adds time per request. */
  requests?: number;
  /** What `requests` counts, for the column heading. */
  unit?: string;
}

export function summariseProfile(file: string, { top = 20, requests, unit = 'request' }: SummaryOptions = {}): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfByFunction = new Map<string, number>();
  const selfByOrigin = new Map<string, number>();
  /** Time with the function anywhere on the stack: how much each step of our code costs in all. */
  const inclusiveOurs = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]!);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    total += dt;
    const where = origin(url);
    const fn = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + dt);
    selfByOrigin.set(where, (selfByOrigin.get(where) ?? 0) + dt);
    const onStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!.callFrame;
      const place = origin(frame.url);
      if (ourCode(place) && frame.functionName) onStack.add(`${frame.functionName} ${place}`);
    }
    for (const key of onStack) inclusiveOurs.set(key, (inclusiveOurs.get(key) ?? 0) + dt);
  }
  const perRequest = (ms: number) => (requests ? [`${((ms * 1000) / requests).toFixed(1)} µs`] : []);
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => [name, fmt.ms(ms), `${((ms / total) * 100).toFixed(1)}%`, ...perRequest(ms)]);
  const columns = ['self', 'share', ...(requests ? [`per ${unit}`] : [])];
  const busy = `${fmt.ms(total)} busy (idle excluded)${requests ? `, ${((total * 1000) / requests).toFixed(1)} µs per ${unit}` : ''}`;
  return [
    `Profile ${path.basename(file)}: ${busy}`,
    table(['self time by package / file', ...columns], rows(selfByOrigin)),
    '',
    table(['self time by function', ...columns], rows(selfByFunction)),
    '',
    table(['inclusive time, our named functions', ...columns], rows(inclusiveOurs)),
  ].join('\n');
}
