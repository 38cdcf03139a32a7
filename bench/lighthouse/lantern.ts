/**
 * `npx tsx lighthouse/lantern.ts DIR/03-….json [--graph optimistic|pessimistic|both] [--all]` —
 * Lighthouse's own estimate of LCP, run again from a run saved by `lighthouse.ts --save DIR`, and the
 * graph it simulated. Lighthouse does not time the page on a phone: it records an unthrottled load,
 * builds a dependency graph of its network requests and main-thread tasks, keeps the nodes it judges
 * necessary for the paint (every request that ended before LCP with the tasks that started them, the
 * scripts' evaluations, and — pessimistic half — every task that ran a layout), and replays that graph
 * on a simulated 4G network with the CPU ×4. LCP is the mean of the two halves. So a task outside the
 * graph costs nothing, and one inside costs ×4: this prints which is which, with each node's simulated
 * start and end, and the chain that ends last (what to shorten).
 * `--drop REGEX` asks "what if": the requests whose URL matches are taken out of the graph (what
 * they connected stays connected) before the simulation — e.g. a chunk loaded after the paint instead.
 * `--merge REGEX` (repeatable): the requests whose URL matches become one, the first of them, with
 * their bytes summed — e.g. chunks bundled together. `--early REGEX`: the matching requests start
 * as soon as the document has arrived (e.g. preloaded by index.html). `--resize REGEX=KB`
 * (repeatable): the matching request transfers KB kilobytes instead.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
// Lighthouse has no exports map: its computed artifacts are importable by path.
import { getComputationDataParams } from 'lighthouse/core/computed/metrics/lantern-metric.js';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';

interface TraceEvent {
  name: string;
  ts: number;
  dur?: number;
  args: { data?: { url?: string; requestId?: string; functionName?: string; timerId?: number; stackTrace?: { url: string }[] } };
}
interface GraphNode {
  id: string;
  type: 'cpu' | 'network';
  startTime: number;
  endTime: number;
  request?: { url: string; resourceType?: string; transferSize?: number; priority?: string };
  childEvents?: TraceEvent[];
  getDependencies(): GraphNode[];
  traverse(callback: (node: GraphNode) => void): void;
  didPerformLayout?(): boolean;
}
interface Timing {
  startTime: number;
  endTime: number;
  duration: number;
}
interface Estimate {
  timeInMs: number;
  nodeTimings: Map<GraphNode, Timing>;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { graph: { type: 'string', default: 'both' }, all: { type: 'boolean', default: false }, drop: { type: 'string' }, merge: { type: 'string', multiple: true }, early: { type: 'string' }, resize: { type: 'string', multiple: true } },
});

const short = (url: string) => {
  try {
    const u = new URL(url);
    return (u.pathname + u.search).replace(/^\/assets\//, '');
  } catch {
    return url;
  }
};

/** What ran inside a main-thread task, in a few words. */
function describeTask(node: GraphNode): string {
  const parts = new Map<string, number>();
  const add = (label: string) => parts.set(label, (parts.get(label) ?? 0) + 1);
  for (const e of node.childEvents ?? []) {
    const d = e.args.data ?? {};
    if (e.name === 'EvaluateScript' && d.url) add(`eval ${short(d.url)}`);
    else if (e.name === 'v8.compileModule') add('compile module');
    else if (e.name === 'ResourceSendRequest' && d.url) add(`→ ${short(d.url)}`);
    else if (e.name === 'Layout') add('layout');
    else if (e.name === 'Paint') add('paint');
    else if (e.name === 'TimerFire') add('timer');
    else if (e.name === 'FireAnimationFrame') add('rAF');
    else if (e.name === 'ParseHTML') add('parse HTML');
    else if (e.name === 'XHRReadyStateChange' || e.name === 'ResourceReceiveResponse') continue;
    else if (e.name === 'FunctionCall' && d.url) add(`call ${short(d.url)}`);
    else if (e.name === 'RunMicrotasks') add('microtasks');
  }
  return [...parts].map(([label, n]) => (n > 1 ? `${label} ×${n}` : label)).join(', ').slice(0, 160);
}

/** The chain that ends last: from the last node, each step back to the dependency that ended last. */
function criticalChain(estimate: Estimate): GraphNode[] {
  const timings = estimate.nodeTimings;
  let last: GraphNode | undefined;
  for (const [node, timing] of timings) if (!last || timing.endTime > timings.get(last)!.endTime) last = node;
  const chain: GraphNode[] = [];
  for (let node = last; node; ) {
    chain.unshift(node);
    let next: GraphNode | undefined;
    for (const dep of node.getDependencies()) {
      if (!timings.has(dep)) continue;
      if (!next || timings.get(dep)!.endTime > timings.get(next)!.endTime) next = dep;
    }
    node = next;
  }
  return chain;
}

function print(label: string, estimate: Estimate, observedStart: number) {
  const rows = [...estimate.nodeTimings].sort((a, b) => a[1].startTime - b[1].startTime);
  let cpu = 0;
  let cpuNodes = 0;
  let requests = 0;
  for (const [node, timing] of rows) {
    if (node.type === 'cpu') {
      cpu += timing.duration;
      cpuNodes++;
    } else requests++;
  }
  console.log(`\n— ${label}: ${estimate.timeInMs.toFixed(0)} ms; ${requests} requests, ${cpuNodes} tasks (${cpu.toFixed(0)} ms of simulated CPU)`);
  const chain = new Set(criticalChain(estimate));
  for (const [node, timing] of rows) {
    if (!values.all && !chain.has(node) && node.type === 'cpu' && timing.duration < 40) continue;
    const observed = `${((node.startTime - observedStart) / 1000).toFixed(0).padStart(5)}+${((node.endTime - node.startTime) / 1000).toFixed(0).padStart(3)}`;
    const what =
      node.type === 'network'
        ? `${short(node.request!.url)} (${node.request!.resourceType ?? '?'}, ${((node.request!.transferSize ?? 0) / 1024).toFixed(1)} kB)`
        : `task: ${describeTask(node)}`;
    console.log(
      `${chain.has(node) ? '*' : ' '} ${timing.startTime.toFixed(0).padStart(5)} → ${timing.endTime.toFixed(0).padStart(5)} ms (${timing.duration.toFixed(0).padStart(4)})  observed ${observed} ms  ${what}`,
    );
  }
}

for (const file of positionals) {
  const saved = JSON.parse(fs.readFileSync(file.replace(/\.json$/, '.devtools.json'), 'utf8')) as Record<string, unknown>;
  const trace = JSON.parse(fs.readFileSync(file.replace(/\.json$/, '.trace'), 'utf8')) as { traceEvents: TraceEvent[] };
  const data = {
    trace,
    devtoolsLog: saved.DevtoolsLog,
    URL: saved.URL,
    gatherContext: saved.GatherContext,
    settings: saved.settings,
    SourceMaps: [],
    simulator: null,
  };
  const params = (await getComputationDataParams(data as never, { computedCache: new Map() } as never)) as unknown as {
    graph: GraphNode;
  };
  if (values.drop) {
    const drop = new RegExp(values.drop);
    const dropped: GraphNode[] = [];
    params.graph.traverse((node) => {
      if (node.type === 'network' && drop.test(node.request!.url)) dropped.push(node);
    });
    for (const node of dropped) Lantern.Graph.PageDependencyGraph.pruneNode(node as never);
    console.log(`\n(what if: ${dropped.length} requests dropped: ${dropped.map((n) => short(n.request!.url)).join(', ')})`);
  }
  for (const pattern of values.merge ?? []) {
    const merge = new RegExp(pattern);
    const merged: GraphNode[] = [];
    params.graph.traverse((node) => {
      if (node.type === 'network' && merge.test(node.request!.url)) merged.push(node);
    });
    merged.sort((a, b) => a.startTime - b.startTime);
    const [first, ...rest] = merged;
    if (!first) continue;
    for (const node of rest) {
      first.request!.transferSize = (first.request!.transferSize ?? 0) + (node.request!.transferSize ?? 0);
      Lantern.Graph.PageDependencyGraph.pruneNode(node as never);
    }
    console.log(`\n(what if: ${merged.length} requests in one, ${((first.request!.transferSize ?? 0) / 1024).toFixed(1)} kB: ${merged.map((n) => short(n.request!.url)).join(', ')})`);
  }
  for (const spec of values.resize ?? []) {
    const at = spec.lastIndexOf('=');
    const pattern = new RegExp(spec.slice(0, at));
    const bytes = Number(spec.slice(at + 1)) * 1024;
    params.graph.traverse((node) => {
      if (node.type !== 'network' || !pattern.test(node.request!.url)) return;
      console.log(`\n(what if: ${short(node.request!.url)} ${((node.request!.transferSize ?? 0) / 1024).toFixed(1)} → ${(bytes / 1024).toFixed(1)} kB)`);
      node.request!.transferSize = bytes;
    });
  }
  if (values.early) {
    const early = new RegExp(values.early);
    let documentNode: GraphNode | undefined;
    const moved: GraphNode[] = [];
    params.graph.traverse((node) => {
      if (node.type !== 'network') return;
      if ((node as unknown as { isMainDocument(): boolean }).isMainDocument()) documentNode = node;
      else if (early.test(node.request!.url)) moved.push(node);
    });
    for (const node of moved) {
      for (const dependency of node.getDependencies()) (node as unknown as { removeDependency(n: GraphNode): void }).removeDependency(dependency);
      (node as unknown as { addDependency(n: GraphNode): void }).addDependency(documentNode!);
    }
    console.log(`\n(what if: ${moved.length} requests start with the document)`);
  }
  const fcpResult = Lantern.Metrics.FirstContentfulPaint.compute(params as never);
  const result = Lantern.Metrics.LargestContentfulPaint.compute(params as never, { fcpResult }) as unknown as {
    timing: number;
    optimisticEstimate: Estimate;
    pessimisticEstimate: Estimate;
  };
  const navigationStart = trace.traceEvents.find((e) => e.name === 'navigationStart')?.ts ?? 0;
  console.log(`\n=== ${file}: simulated LCP ${result.timing.toFixed(0)} ms (optimistic ${result.optimisticEstimate.timeInMs.toFixed(0)}, pessimistic ${result.pessimisticEstimate.timeInMs.toFixed(0)})`);
  console.log('  (* on the chain that ends last; observed = start+duration in the unthrottled trace)');
  if (values.graph !== 'pessimistic') print('optimistic', result.optimisticEstimate, navigationStart);
  if (values.graph !== 'optimistic') print('pessimistic', result.pessimisticEstimate, navigationStart);
}
