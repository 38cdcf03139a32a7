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
  /** Samples by line of the script (1-based), when V8 recorded them. */
  positionTicks?: { line: number; ticks: number }[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * A readable bundle (lib/readable-server.ts): its lines, and where each of esbuild's
 * `// ../sync-server/src/app.ts` markers starts a module, to name the source of a line.
 */
interface Bundle {
  lines: string[];
  modules: { from: number; source: string }[];
}
const bundles = new Map<string, Bundle | null>();

function bundleOf(url: string): Bundle | null {
  if (!url.includes('/.bench-bundle/')) return null;
  let bundle = bundles.get(url);
  if (bundle === undefined) {
    try {
      const lines = fs.readFileSync(new URL(url), 'utf8').split('\n');
      const modules: Bundle['modules'] = [];
      lines.forEach((line, i) => {
        const marker = /^\/\/ (?:\.\.\/)*(.+\.(?:ts|js|mjs|cjs|json))$/.exec(line);
        if (marker) modules.push({ from: i + 1, source: marker[1]! });
      });
      bundle = { lines, modules };
    } catch {
      bundle = null;
    }
    bundles.set(url, bundle);
  }
  return bundle;
}

/** The source file of line `line` (1-based) of a readable bundle. */
function sourceAt(bundle: Bundle, line: number): string {
  let source = '(bundle)';
  for (const module of bundle.modules) {
    if (module.from > line) break;
    source = module.source;
  }
  return source;
}

/** Where a script lives, short: a package name, a sync-server file, or a node internal. */
function origin(url: string, line?: number): string {
  if (url === '') return '(native/vm)';
  if (url.startsWith('node:')) return 'node:internal';
  const bundle = bundleOf(url);
  if (bundle && line !== undefined) return origin(`/${sourceAt(bundle, line)}`);
  const pnpm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
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
    const where = origin(url, lineNumber + 1);
    const fn = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + dt);
    selfByOrigin.set(where, (selfByOrigin.get(where) ?? 0) + dt);
    const onStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!.callFrame;
      const place = origin(frame.url, frame.lineNumber + 1);
      if (ourCode(place) && frame.functionName) onStack.add(`${frame.functionName} ${place}`);
    }
    for (const key of onStack) inclusiveOurs.set(key, (inclusiveOurs.get(key) ?? 0) + dt);
  }
  // A readable bundle names lines: self time by line, with the line's code.
  const selfByLine = new Map<string, number>();
  const msPerSample = profile.samples.length > 0 ? profile.timeDeltas.reduce((a, b) => a + b, 0) / profile.samples.length / 1000 : 0;
  for (const node of profile.nodes) {
    const bundle = bundleOf(node.callFrame.url);
    if (!bundle) continue;
    for (const { line, ticks } of node.positionTicks ?? []) {
      const key = `${sourceAt(bundle, line)}: ${(bundle.lines[line - 1] ?? '').trim().slice(0, 90)}`;
      selfByLine.set(key, (selfByLine.get(key) ?? 0) + ticks * msPerSample);
    }
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
    ...(selfByLine.size > 0 ? ['', table(['self time by line (readable bundle)', ...columns], rows(selfByLine))] : []),
  ].join('\n');
}
