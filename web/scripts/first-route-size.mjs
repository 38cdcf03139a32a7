/**
 * The first-route JavaScript budget (docs/web.md#first-load): the gzip size of every JS chunk a
 * phone downloads to show `/auth`, and `/` signed in, must stay within its budget
 * (web/first-route-budget.json). Run by `pnpm test` after the build (`pnpm size`); it exits 1 when
 * a route is over, listing its chunks, biggest first.
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

export function gzipBytes(file) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/**
 * Every first route's JavaScript, gzip-sized, with whether it is over its budget.
 * `routes`: { [route]: { budgetBytes, lazyModules } }.
 */
export function measureFirstRoutes(dist, routes = readConfig()) {
  const manifest = readManifest(dist);
  return Object.entries(routes).map(([route, { budgetBytes: budget, lazyModules }]) => {
    const chunks = routeChunks(manifest, lazyModules)
      .map((file) => ({ file, bytes: gzipBytes(path.join(dist, file)) }))
      .sort((a, b) => b.bytes - a.bytes);
    const bytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    return { route, bytes, budget, over: bytes > budget, chunks };
  });
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

export function report(results) {
  return results
    .map(({ route, bytes, budget, over, chunks }) =>
      [
        `${over ? 'OVER ' : 'ok   '} ${route}: ${kb(bytes)} gzip of JavaScript (budget ${kb(budget)})`,
        ...(over ? chunks.map((c) => `        ${kb(c.bytes).padStart(9)}  ${c.file}`) : []),
      ].join('\n'),
    )
    .join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  const configAt = args.indexOf('--config');
  const config = configAt >= 0 ? path.resolve(args.splice(configAt, 2)[1]) : DEFAULT_CONFIG;
  const results = measureFirstRoutes(path.resolve(args[0] ?? 'dist'), readConfig(config));
  console.log(report(results));
  if (results.some((r) => r.over)) {
    console.error('First-route JavaScript over budget: lazy-load what the first screen does not need (web/README.md "First load").');
    process.exit(1);
  }
}
