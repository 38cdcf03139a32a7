/**
 * `npx tsx lighthouse/tasks.ts DIR/03-….trace [--min 10]` — the page's main-thread tasks in a trace
 * saved by `lighthouse.ts --save DIR`, as they ran (not simulated: Lighthouse multiplies CPU by 4
 * in its estimate): each task of at least --min ms with what ran inside it (scripts evaluated,
 * functions called, timers, frames, style and layout, garbage collection), and the paints (FCP,
 * LCP candidates with their node) and layout shifts. With the sampling profiler's data in the
 * trace, the heaviest functions of each long task (self time; with --inclusive, the time spent in
 * each function and what it called — e.g. React's renderRootSync against workLoopConcurrent).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown>; frame?: string };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { min: { type: 'string', default: '10' }, top: { type: 'string', default: '6' }, inclusive: { type: 'boolean', default: false } },
});
const MIN_MS = Number(values.min);
const TOP = Number(values.top);

for (const file of positionals) {
  const trace = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] };
  const events = trace.traceEvents;
  // The renderer's main thread: the one with the navigation's first ParseHTML... simplest: the CrRendererMain with the most RunTask time.
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const busy = new Map<string, number>();
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X') continue;
    const key = `${e.pid}:${e.tid}`;
    if (threadNames.get(key) !== 'CrRendererMain') continue;
    busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) throw new Error('no renderer main thread');
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main).sort((a, b) => a.ts - b.ts);
  const navStart = events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === main)?.ts ?? onMain[0]!.ts;
  const t = (ts: number) => `${((ts - navStart) / 1000).toFixed(0).padStart(5)} ms`;

  console.log(`\n=== ${file}`);
  for (const e of events) {
    if (e.pid !== Number(main.split(':')[0])) continue;
    if (e.name === 'firstContentfulPaint') console.log(`${t(e.ts)} FCP`);
    if (e.name === 'largestContentfulPaint::Candidate') {
      const d = e.args?.data ?? {};
      console.log(`${t(e.ts)} LCP candidate: ${d.type} size ${d.size} node ${d.nodeId}`);
    }
    if (e.name === 'LayoutShift') {
      const d = (e.args?.data ?? {}) as { score?: number; had_recent_input?: boolean; impacted_nodes?: { node_id: number }[] };
      console.log(`${t(e.ts)} layout shift ${d.score?.toFixed(4)} nodes ${d.impacted_nodes?.map((n) => n.node_id).join(',')}`);
    }
  }

  // CPU profile samples (if recorded): node id → function, and sample times.
  const nodes = new Map<number, { fn: string; url: string; line: number; parent?: number }>();
  const samples: { ts: number; node: number }[] = [];
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== Number(main.split(':')[0])) continue;
    const data = e.args?.data as { cpuProfile?: { nodes?: { id: number; parent?: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
    const profile = data?.cpuProfile;
    for (const n of profile?.nodes ?? []) nodes.set(n.id, { fn: n.callFrame.functionName || '(anonymous)', url: n.callFrame.url ?? '', line: n.callFrame.lineNumber, parent: n.parent });
    let ts = samples.length > 0 ? samples[samples.length - 1]!.ts : Number((events.find((x) => x.name === 'Profile' && x.pid === e.pid)?.args?.data as { startTime?: number } | undefined)?.startTime ?? 0);
    const deltas = data?.timeDeltas ?? [];
    (profile?.samples ?? []).forEach((node, i) => {
      ts += deltas[i] ?? 0;
      samples.push({ ts, node });
    });
  }

  let total = 0;
  let overMin = 0;
  for (const task of onMain) {
    if (task.name !== 'RunTask' || task.ph !== 'X') continue;
    const ms = (task.dur ?? 0) / 1000;
    total += ms;
    if (ms < MIN_MS) continue;
    overMin++;
    const end = task.ts + (task.dur ?? 0);
    const inside = onMain.filter((e) => e !== task && e.ph === 'X' && e.ts >= task.ts && e.ts < end && (e.dur ?? 0) >= 1000);
    const parts = inside
      .filter((e) => ['EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'Paint', 'MajorGC', 'MinorGC', 'ParseHTML', 'RunMicrotasks', 'EventDispatch', 'v8.run', 'XHRReadyStateChange', 'ParseAuthorStyleSheet', 'PrePaint', 'Commit', 'v8.parseOnBackground', 'HandlePostMessage', 'IntersectionObserverController::computeIntersections'].includes(e.name))
      .map((e) => {
        const d = e.args?.data ?? {};
        const where = String(d.url ?? d.functionName ?? d.type ?? '').replace(/^https?:\/\/[^/]+/, '');
        return `${e.name}${where ? ` ${where}` : ''}${d.functionName && d.url ? ` ${d.functionName}` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`;
      });
    console.log(`${t(task.ts)} task ${ms.toFixed(1)} ms: ${parts.slice(0, 12).join(' | ')}`);
    if (samples.length > 0) {
      const self = new Map<string, number>();
      const inTask = samples.filter((s) => s.ts >= task.ts && s.ts < end);
      for (let i = 0; i < inTask.length; i++) {
        const n = nodes.get(inTask[i]!.node);
        if (!n) continue;
        const next = inTask[i + 1]?.ts ?? end;
        const span = (next - inTask[i]!.ts) / 1000;
        if (values.inclusive) {
          const seen = new Set<string>();
          for (let id: number | undefined = inTask[i]!.node; id !== undefined; ) {
            const m = nodes.get(id);
            if (!m) break;
            const key = `${m.fn} ${m.url.replace(/^https?:\/\/[^/]+/, '')}:${m.line}`;
            if (!seen.has(key)) self.set(key, (self.get(key) ?? 0) + span);
            seen.add(key);
            id = m.parent;
          }
          continue;
        }
        const key = `${n.fn} ${n.url.replace(/^https?:\/\/[^/]+/, '')}:${n.line}`;
        self.set(key, (self.get(key) ?? 0) + span);
      }
      const heaviest = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP);
      for (const [key, v] of heaviest) console.log(`        ${v.toFixed(1)} ms ${key}`);
    }
  }
  console.log(`main thread tasks: ${total.toFixed(0)} ms in all, ${overMin} of ${MIN_MS} ms or more`);
}
