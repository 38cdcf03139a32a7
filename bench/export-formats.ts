/**
 * `pnpm --filter @chronicler/bench bench:export` — exporting a 200,000-word book in Chromium
 * against reading the same chapters from IndexedDB and joining their text (targets: DOCX, EPUB and
 * Markdown ≤ 10×, PDF ≤ 40×).
 *
 * The page (browser/export-page/entry.ts) bundles the web app's real export code with esbuild and
 * is served from a temp folder by a static server on 127.0.0.1. The book (100 chapters of 2,000
 * words of deterministic prose) goes into IndexedDB through Dexie. Each round measures the
 * baseline, then every format; an export is timed from the IndexedDB reads to the finished bytes
 * (as the export worker makes it, on the page's main thread here). Medians of `--rounds` after one
 * warm-up. Printed with absolute seconds and words per second.
 *
 *   tsx export-formats.ts [--chapters 100] [--words 2000] [--rounds 3]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { type Verdict, atMost, finish, fmt, median, table } from './lib/report.ts';
import { launchChromium } from './lib/playwright.ts';
import { BENCH_DIR, benchArgs, describeLoad, describeMachine } from './lib/setting.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    chapters: { type: 'string', default: '100' },
    words: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
  },
});
const CHAPTERS = Number(flags.chapters);
const WORDS = Number(flags.words);
const ROUNDS = Number(flags.rounds);
const FORMATS = ['markdown', 'docx', 'epub', 'pdf'] as const;
const TARGETS: Record<(typeof FORMATS)[number], number> = { markdown: 10, docx: 10, epub: 10, pdf: 40 };

console.log(describeMachine());
console.log(describeLoad());

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-export-bench-'));
await build({
  entryPoints: [path.join(BENCH_DIR, 'browser/export-page/entry.ts')],
  outfile: path.join(dir, 'bench.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'error',
});
fs.copyFileSync(path.join(BENCH_DIR, '../web/node_modules/dejavu-fonts-ttf/ttf/DejaVuSerif.ttf'), path.join(dir, 'DejaVuSerif.ttf'));
fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>export bench</title></head><body><script type="module" src="/bench.js"></script></body></html>\n');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.ttf': 'font/ttf' };
const server = http.createServer((req, res) => {
  const file = path.join(dir, path.basename(new URL(req.url ?? '/', 'http://x').pathname) || 'index.html');
  if (!fs.existsSync(file)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

// Headless (Playwright's default) with the flags this bench has always used.
const browser = await launchChromium({ args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
const verdicts: Verdict[] = [];
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction('globalThis.__exportBenchReady === true', undefined, { timeout: 30_000 });
  type Api = {
    seed(c: number, w: number): Promise<{ words: number }>;
    readAndJoin(): Promise<{ ms: number; chars: number }>;
    exportAs(f: string): Promise<{ ms: number; bytes: number }>;
  };
  const call = <R>(method: keyof Api, ...args: unknown[]) =>
    page.evaluate(([m, a]) => ((globalThis as unknown as { __exportBench: Record<string, (...x: unknown[]) => Promise<unknown>> }).__exportBench[m as string]!(...(a as unknown[]))), [method, args] as const) as Promise<R>;
  const { words } = await call<{ words: number }>('seed', CHAPTERS, WORDS);
  console.log(`Chromium ${browser.version()}; a book of ${fmt.int(words)} words in ${CHAPTERS} chapters in IndexedDB`);

  const base: number[] = [];
  const times: Record<string, number[]> = Object.fromEntries(FORMATS.map((f) => [f, []]));
  const sizes: Record<string, number> = {};
  for (let round = 0; round <= ROUNDS; round++) {
    const b = await call<{ ms: number }>('readAndJoin');
    if (round > 0) base.push(b.ms);
    for (const format of FORMATS) {
      const r = await call<{ ms: number; bytes: number }>('exportAs', format);
      sizes[format] = r.bytes;
      if (round > 0) times[format]!.push(r.ms);
    }
  }
  const baseMs = median(base);
  console.log(`rounds (ms): baseline ${base.map((x) => x.toFixed(0)).join(', ')}; ${FORMATS.map((f) => `${f} ${times[f]!.map((x) => x.toFixed(0)).join(', ')}`).join('; ')}`);
  console.log('');
  const rows: (string | number)[][] = [['read + join (baseline)', fmt.ms(baseMs), `${(baseMs / 1000).toFixed(3)} s`, fmt.int(words / (baseMs / 1000)), '', '']];
  for (const format of FORMATS) {
    const ms = median(times[format]!);
    rows.push([format, fmt.ms(ms), `${(ms / 1000).toFixed(3)} s`, fmt.int(words / (ms / 1000)), fmt.mb(sizes[format]!), fmt.ratio(ms / baseMs)]);
    verdicts.push(atMost(`${format} export of ${fmt.int(words)} words`, ms / baseMs, TARGETS[format], 'reading and joining it from IndexedDB'));
  }
  console.log(table(['measure', 'median', 'seconds', 'words/s', 'file', 'ratio'], rows));
} finally {
  await browser.close();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(describeLoad());
}
finish(verdicts);
