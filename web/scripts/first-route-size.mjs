/**
 * The first-route budgets (docs/web.md#first-load): the gzip size of every JS chunk a phone
 * downloads to show `/auth`, and `/` signed in, must stay within its budget, and so must the
 * number of files (JS and CSS) it requests for them — and, on `/`, for what it loads once the
 * outline has painted (web/first-route-budget.json: `budgetBytes`, `maxRequests`,
 * `maxRequestsAfterPaint`). Every file is a round trip in a queue on a phone's six HTTP/1.1
 * connections, so a module that misses the chunk plan (build/chunk-plan.ts) and becomes a chunk of
 * its own fails here even when it weighs nothing. Run by `pnpm test` after the build (`pnpm size`);
 * it exits 1 when a route is over, listing its chunks, biggest first, or its files.
 *
 * A route's JavaScript is the entry (index.html's script) and the lazy modules the route renders
 * on its first paint (listed in web/first-route-budget.json), each with everything it imports
 * statically, from Vite's build manifest. Anything else is loaded later, on demand.
 * e2e/tests/first-load.spec.ts checks in Chromium that the browser loads nothing beyond this set,
 * so the list below cannot drift from what the app really does.
 *
 *   node scripts/first-route-size.mjs [dist] [--config first-route-budget.json]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The budgets and, per first route, the lazy modules it renders at once (web/first-route-budget.json). */
export const DEFAULT_CONFIG = path.join(import.meta.dirname, '..', 'first-route-budget.json');

export function readConfig(file = DEFAULT_CONFIG) {
  return JSON.parse(fs.readFileSync(file, 'utf8')).routes;
}

export function readManifest(dist) {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
}

/** The JS files of the entry and of `lazyModules`, each with its static imports, transitively. */
export function routeChunks(manifest, lazyModules) {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest (renamed or no longer lazy?)`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entries[0][0]);
  for (const module of lazyModules) {
    if (manifest[module] && !manifest[module].isDynamicEntry) throw new Error(`${module} is not lazy-loaded: it is part of another chunk`);
    visit(module);
  }
  return [...files].filter((file) => file.endsWith('.js'));
}

/** The files the browser requests for `jsFiles`: those scripts and the stylesheets they import. */
export function requestedFiles(manifest, jsFiles) {
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  const css = new Set(jsFiles.flatMap((file) => byFile.get(file)?.css ?? []));
  return [...jsFiles, ...css];
}

/** A count of requests against its budget (null: the route sets none). */
function requestCount(files, budget) {
  return { count: files.length, budget: budget ?? null, over: budget != null && files.length > budget, files: [...files].sort() };
}

export function gzipBytes(file) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/**
 * Every first route's JavaScript, gzip-sized, and its requests, each with whether it is over its
 * budget. `routes`: { [route]: { budgetBytes, lazyModules, maxRequests?, afterPaintModules?,
 * maxRequestsAfterPaint? } }.
 */
export function measureFirstRoutes(dist, routes = readConfig()) {
  const manifest = readManifest(dist);
  return Object.entries(routes).map(([route, config]) => {
    const { budgetBytes: budget, lazyModules, afterPaintModules = [] } = config;
    const jsFiles = routeChunks(manifest, lazyModules);
    const chunks = jsFiles.map((file) => ({ file, bytes: gzipBytes(path.join(dist, file)) })).sort((a, b) => b.bytes - a.bytes);
    const bytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    const firstPaint = requestedFiles(manifest, jsFiles);
    const untilLoaded = afterPaintModules.length > 0 ? requestedFiles(manifest, routeChunks(manifest, [...lazyModules, ...afterPaintModules])) : firstPaint;
    const afterPaint = untilLoaded.filter((file) => !firstPaint.includes(file));
    return {
      route,
      bytes,
      budget,
      over: bytes > budget,
      chunks,
      requests: requestCount(firstPaint, config.maxRequests),
      afterPaintRequests: requestCount(afterPaint, config.maxRequestsAfterPaint),
    };
  });
}

/** Whether a route is over any of its budgets. */
export const isOver = (result) => result.over || result.requests.over || result.afterPaintRequests.over;

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** One line per count that has a budget, then the files when it is over. */
function requestLines(label, { count, budget, over, files }) {
  if (budget === null) return [];
  return [`        ${over ? 'OVER' : 'ok'}: ${count} requests ${label} (budget ${budget})`, ...(over ? files.map((file) => `                   ${file}`) : [])];
}

export function report(results) {
  return results
    .map((result) => {
      const { route, bytes, budget, over, chunks } = result;
      return [
        `${isOver(result) ? 'OVER ' : 'ok   '} ${route}: ${kb(bytes)} gzip of JavaScript (budget ${kb(budget)})`,
        ...(over ? chunks.map((c) => `        ${kb(c.bytes).padStart(9)}  ${c.file}`) : []),
        ...requestLines('before the first paint', result.requests),
        ...requestLines('after it', result.afterPaintRequests),
      ].join('\n');
    })
    .join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  const configAt = args.indexOf('--config');
  const config = configAt >= 0 ? path.resolve(args.splice(configAt, 2)[1]) : DEFAULT_CONFIG;
  const results = measureFirstRoutes(path.resolve(args[0] ?? 'dist'), readConfig(config));
  console.log(report(results));
  if (results.some((r) => r.over)) console.error('First-route JavaScript over budget: lazy-load what the first screen does not need (web/src/lib/first-load/README.md).');
  if (results.some((r) => r.requests.over || r.afterPaintRequests.over)) {
    console.error('First-route requests over budget: put the new module in its group of the chunk plan (web/build/chunk-plan.ts), or lazy-load it (web/src/lib/first-load/README.md).');
  }
  if (results.some(isOver)) process.exit(1);
}
