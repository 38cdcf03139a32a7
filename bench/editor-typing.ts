/**
 * `pnpm --filter @chronicler/bench bench:editor` — typing latency in the chapter editor.
 *
 * The real server serves the built PWA (web/dist); headless Debian Chromium opens the editor on a
 * 20,000-word chapter and on an empty chapter of the same author, in the same run, and types
 * 200 keystrokes into each (after 20 warm-up keystrokes; the long chapter has an italic phrase in
 * every paragraph and a bold word in every third, lib/prose.ts withEmphasis): into the long chapter twice, at its start
 * and at its end (Ctrl+End; the page scrolls there and the editor draws only what is in view,
 * docs/decisions/0001-editor-scrolls-with-the-page.md). Per keystroke the page measures
 * input-to-next-frame: from the keydown's event timestamp to the first task after the next
 * animation frame (rAF, then a MessageChannel message — the frame's style, layout and paint have
 * run by then). The whole app is live while it types: the incremental word count, the badges, the
 * keystroke draft written to IndexedDB, the sync engine.
 *
 * Targets (bench/README.md): p95 on the 20,000-word chapter, at its start and at its end, < 16 ms
 * (one frame) and ≤ 1.5× the empty chapter's p95. `--cpu 4` repeats both at 4× CPU slowdown (printed, not a target).
 *
 * Flags: --keys 200 --warmup 20 --delay 60 (ms between keystrokes) --words 20000 --cpu 1 (1,4 adds
 * the 4× slowdown) --profile
 * `--profile` samples the renderer's JavaScript (CDP Profiler) while the measured keystrokes are
 * typed and prints where their script time goes; read it on an unminified build
 * (`vite build --minify false --outDir …`, then BENCH_WEB_DIST=… ). BENCH_WEB_DIST also runs the
 * bench on an older commit's build, to tell the host's share of a change from the code's.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SIGNED_IN_HINT_COOKIE } from '@chronicler/schema';
import { createStory } from './lib/api.ts';
import { startServer } from './lib/child.ts';
import { chapterText, withEmphasis } from './lib/prose.ts';
import { type Verdict, finish, fmt, invalid, table } from './lib/report.ts';
import { BENCH_DIR, SERVERS, benchArgs, describeLoad, describeMachine, tempDataDir } from './lib/setting.ts';

// Playwright comes from the e2e workspace package (it drives Debian's Chromium there too). The
// few calls used here are typed locally, and in-page code is passed as text: this package has no
// DOM types and no Playwright dependency of its own.
interface Locator {
  waitFor(options?: { timeout?: number }): Promise<void>;
  click(): Promise<void>;
  textContent(): Promise<string | null>;
}
interface CdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  detach(): Promise<void>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  getByTestId(id: string): Locator;
  waitForTimeout(ms: number): Promise<void>;
  keyboard: { type(text: string): Promise<void>; press(key: string): Promise<void> };
  evaluate<T>(expression: string): Promise<T>;
}
interface BrowserContext {
  addCookies(cookies: { name: string; value: string; url: string }[]): Promise<void>;
  newPage(): Promise<Page>;
  newCDPSession(page: Page): Promise<CdpSession>;
  close(): Promise<void>;
}
interface Browser {
  newContext(options: { viewport: { width: number; height: number } }): Promise<BrowserContext>;
  close(): Promise<void>;
}
const requireFromE2e = createRequire(path.join(BENCH_DIR, '../e2e/package.json'));
const { chromium } = requireFromE2e('@playwright/test') as { chromium: { launch(options: { executablePath: string; args: string[] }): Promise<Browser> } };

const { values: args } = parseArgs({
  args: benchArgs(),
  options: {
    keys: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    delay: { type: 'string', default: '60' },
    words: { type: 'string', default: '20000' },
    cpu: { type: 'string', default: '1' },
    profile: { type: 'boolean', default: false },
  },
});
const KEYS = Number(args.keys);
const WARMUP = Number(args.warmup);
const DELAY_MS = Number(args.delay);
const WORDS = Number(args.words);
const CPU_RATES = args.cpu.split(',').map(Number);

/** BENCH_WEB_DIST: another build (an unminified one for --profile, or an older commit's). */
const WEB_DIST = path.resolve(BENCH_DIR, process.env.BENCH_WEB_DIST ?? '../web/dist');
const PROFILE = args.profile;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** What is typed: prose with spaces and punctuation (the word count changes as it goes). */
const TYPED = 'The lanterns drifted past the mill, and nobody said a word. ';

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The per-keystroke probe, run in the page: keydown's timestamp → the first task after the next
 * animation frame. Samples collect in window.__latencies.
 */
const PROBE = `(() => {
  window.__latencies = [];
  const channel = new MessageChannel();
  const pending = [];
  channel.port1.onmessage = () => {
    const start = pending.shift();
    if (start !== undefined) window.__latencies.push(performance.now() - start);
  };
  window.addEventListener('keydown', (event) => {
    const start = event.timeStamp;
    requestAnimationFrame(() => {
      pending.push(start);
      channel.port2.postMessage(null);
    });
  }, { capture: true });
})()`;

async function typeKeys(page: Page, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await page.keyboard.type(TYPED[i % TYPED.length]!);
    await page.waitForTimeout(DELAY_MS);
  }
}

type Where = 'start' | 'end';

interface Run {
  label: string;
  where: Where;
  cpu: number;
  latencies: number[];
  wordsShown: string;
  /** Main-thread time per keystroke (ms) by kind, from the renderer's own counters. */
  perKey: { task: number; script: number; layout: number; style: number };
}

const METRICS = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'] as const;
type Metrics = Record<(typeof METRICS)[number], number>;

/** The renderer's cumulative main-thread time counters (seconds), CDP Performance.getMetrics. */
async function metrics(cdp: CdpSession): Promise<Metrics> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const out = {} as Metrics;
  for (const name of METRICS) out[name] = list.find((m) => m.name === name)?.value ?? 0;
  return out;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function, and time inside (self and callees) the app's own modules' functions, per keystroke. */
function printProfile(title: string, profile: CpuProfile): void {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
  };
  const selfByName = new Map<string, number>();
  const inclusiveByName = new Map<string, number>();
  for (const [id, ms] of self) {
    selfByName.set(name(id), (selfByName.get(name(id)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = name(at);
      if (seen.has(n)) continue;
      seen.add(n);
      inclusiveByName.set(n, (inclusiveByName.get(n) ?? 0) + ms);
    }
  }
  const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => [k, fmt.ms(ms / KEYS)]);
  console.log(`\nprofile, ${title}: self time per keystroke\n`);
  console.log(table(['function', 'ms/key'], top(selfByName, 25)));
  console.log(`\nprofile, ${title}: time inside (self and callees) per keystroke\n`);
  console.log(table(['function', 'ms/key'], top(inclusiveByName, 40)));
}

async function measure(context: BrowserContext, page: Page, url: string, label: string, cpu: number, where: Where): Promise<Run> {
  await page.goto(url);
  const content = page.getByTestId('chapter-content');
  await content.waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1_500); // let the first sync, fonts and layout settle
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  await content.click();
  // At the start the whole chapter follows the caret; at the end the page has scrolled the length of it.
  await page.keyboard.press(where === 'start' ? 'Control+Home' : 'Control+End');
  await page.evaluate(PROBE);
  await typeKeys(page, WARMUP);
  await page.waitForTimeout(300);
  await page.evaluate('window.__latencies = []');
  await cdp.send('Performance.enable');
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  const before = await metrics(cdp);
  await typeKeys(page, KEYS);
  await page.waitForTimeout(500);
  const after = await metrics(cdp);
  if (PROFILE) printProfile(`${label}, typed at its ${where}`, ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile);
  const per = (name: (typeof METRICS)[number]) => ((after[name] - before[name]) * 1000) / KEYS;
  const perKey = { task: per('TaskDuration'), script: per('ScriptDuration'), layout: per('LayoutDuration'), style: per('RecalcStyleDuration') };
  const latencies = await page.evaluate<number[]>('window.__latencies');
  const wordsShown = (await page.getByTestId('words-badge').textContent()) ?? '';
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  return { label, where, cpu, latencies, wordsShown, perKey };
}

async function main(): Promise<void> {
  console.log(describeMachine());
  console.log(describeLoad());
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(`No built web app at ${WEB_DIST}: run \`pnpm --filter @chronicler/web build\` first (bench:editor does).`);
  }
  const data = tempDataDir();
  const server = await startServer(SERVERS.chronicler, {
    env: { DATA_DIR: data.dir, WEB_DIST, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '10000' },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const verdicts: Verdict[] = [];
  try {
    const story = await createStory(server.url, 1);
    const bookId = story.bookIds[0]!;
    // Emphasis throughout (an italic phrase in every paragraph): the editor draws it on every line in view.
    const text = withEmphasis(chapterText(42, WORDS));
    // Fresh chapters for every pass: typed words stay behind as a draft, which the editor offers
    // (read-only until the author chooses) when the same chapter is opened again.
    const newChapter = (title: string, content: string) => story.client.json<{ id: string }>('POST', '/api/chapters', { bookId, title, content });
    const [name, value] = story.client.cookie!.split('=') as [string, string];
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // The session, and the page-readable hint the server sets beside it: without the hint the app
    // starts signed out (no anonymous GET /api/user on every first load).
    await context.addCookies([
      { name, value, url: server.url },
      { name: SIGNED_IN_HINT_COOKIE, value: '1', url: server.url },
    ]);
    const page = await context.newPage();
    const url = (id: string) => `${server.url}/chapter-editor?id=${id}&bookId=${bookId}&seriesId=${story.seriesId}`;
    console.log(`\n${KEYS} keystrokes (after ${WARMUP} warm-up), one every ~${DELAY_MS} ms, at the start and at the end of the long chapter\n`);

    const runs: Run[] = [];
    const bigLabel = `${fmt.int(WORDS)}-word chapter`;
    for (const cpu of CPU_RATES) {
      for (const where of ['start', 'end'] as const) {
        const big = await newChapter(`The Long Chapter (${cpu}×, ${where})`, text);
        runs.push(await measure(context, page, url(big.id), bigLabel, cpu, where));
      }
      const empty = await newChapter(`The Empty Chapter (${cpu}×)`, '');
      runs.push(await measure(context, page, url(empty.id), 'empty chapter', cpu, 'start'));
    }
    await context.close();

    console.log('input-to-next-frame latency per keystroke (what the author feels; other load on the machine inflates it)\n');
    console.log(
      table(
        ['chapter', 'typed at', 'CPU', 'samples', 'p50', 'p95', 'max', 'words shown after'],
        runs.map((r) => [
          r.label,
          r.where,
          `${r.cpu}×`,
          r.latencies.length,
          fmt.ms(percentile(r.latencies, 50)),
          fmt.ms(percentile(r.latencies, 95)),
          fmt.ms(Math.max(...r.latencies)),
          r.wordsShown,
        ]),
      ),
    );

    console.log('\nmain-thread time per keystroke, all work included (the renderer\'s counters; less disturbed by other load)\n');
    console.log(
      table(
        ['chapter', 'typed at', 'CPU', 'all tasks', 'script', 'layout', 'style'],
        runs.map((r) => [r.label, r.where, `${r.cpu}×`, fmt.ms(r.perKey.task), fmt.ms(r.perKey.script), fmt.ms(r.perKey.layout), fmt.ms(r.perKey.style)]),
      ),
    );

    for (const cpu of CPU_RATES) {
      const emptyRun = runs.find((r) => r.cpu === cpu && r.label === 'empty chapter')!;
      const p95Empty = percentile(emptyRun.latencies, 95);
      for (const where of ['start', 'end'] as const) {
        const bigRun = runs.find((r) => r.cpu === cpu && r.label === bigLabel && r.where === where)!;
        const p95Big = percentile(bigRun.latencies, 95);
        const ratio = p95Big / p95Empty;
        const at = `${fmt.int(WORDS)}-word chapter, typed at its ${where}`;
        console.log(`\n${cpu}× CPU: p95 ${fmt.ms(p95Big)} on the ${at} vs ${fmt.ms(p95Empty)} on the empty chapter — ratio ${fmt.ratio(ratio)}`);
        console.log(`${cpu}× CPU: main-thread time ${fmt.ms(bigRun.perKey.task)} vs ${fmt.ms(emptyRun.perKey.task)} per keystroke — ratio ${fmt.ratio(bigRun.perKey.task / emptyRun.perKey.task)}`);
        if (cpu !== 1) continue;
        if (bigRun.latencies.length < KEYS * 0.95 || emptyRun.latencies.length < KEYS * 0.95) {
          verdicts.push(invalid(`editor typing at the ${where}`, `only ${bigRun.latencies.length}/${emptyRun.latencies.length} of ${KEYS} keystrokes were measured`));
          continue;
        }
        const frameOk = p95Big < 16;
        verdicts.push({ pass: frameOk, line: `${frameOk ? 'PASS' : 'FAIL'} typing p95 on the ${at}: ${fmt.ms(p95Big)} (target < 16 ms)` });
        const ratioOk = ratio <= 1.5;
        verdicts.push({ pass: ratioOk, line: `${ratioOk ? 'PASS' : 'FAIL'} typing p95, ${at} vs empty: ${fmt.ratio(ratio)} (target ≤ 1.5×)` });
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    data.remove();
  }
  console.log(`\n${describeLoad()}`);
  finish(verdicts);
}

await main();
