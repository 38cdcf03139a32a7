/**
 * The first-route size check fails a build whose first screen downloads too much JavaScript, or
 * requests more files than its budget, and passes one within its budgets
 * (scripts/first-route-size.mjs, run by `pnpm test` after the build).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { measureFirstRoutes, routeChunks } from './first-route-size.mjs';

const SCRIPT = path.join(import.meta.dirname, 'first-route-size.mjs');
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Random bytes in base64: gzip cannot shrink them much, so sizes are predictable. */
const noise = (bytes: number) => crypto.randomBytes(bytes).toString('base64');

/**
 * A build like Vite's: an entry importing the react chunk, a lazy /auth screen importing a shared
 * chunk, and a lazy editor that /auth never loads.
 */
function fixtureBuild(
  sizes: { entry: number; react: number; auth: number; shared: number; editor: number },
  { extraChunk = false }: { extraChunk?: boolean } = {},
): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'first-route-'));
  made.push(dist);
  fs.mkdirSync(path.join(dist, '.vite'), { recursive: true });
  fs.mkdirSync(path.join(dist, 'assets'));
  const files = {
    'assets/index-1.js': sizes.entry,
    'assets/react-1.js': sizes.react,
    'assets/AuthRoute-1.js': sizes.auth,
    'assets/Input-1.js': sizes.shared,
    'assets/Editor-1.js': sizes.editor,
  };
  for (const [file, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dist, file), noise(bytes));
  fs.writeFileSync(path.join(dist, 'assets', 'index-1.css'), noise(50_000)); // CSS is not JavaScript
  const manifest = {
    'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-1.js'], css: ['assets/index-1.css'], dynamicImports: ['src/app/routes/AuthRoute.tsx', 'src/Editor.tsx'] },
    '_react-1.js': { file: 'assets/react-1.js' },
    '_Input-1.js': { file: 'assets/Input-1.js', imports: ['_react-1.js'] },
    'src/app/routes/AuthRoute.tsx': { file: 'assets/AuthRoute-1.js', isDynamicEntry: true, imports: ['_Input-1.js', '_react-1.js'] },
    'src/Editor.tsx': { file: 'assets/Editor-1.js', isDynamicEntry: true, imports: ['_Input-1.js'] },
  };
  if (extraChunk) {
    // A module that missed its group: a chunk of its own that the /auth screen imports.
    fs.writeFileSync(path.join(dist, 'assets', 'IconNew-1.js'), noise(200));
    Object.assign(manifest, { '_IconNew-1.js': { file: 'assets/IconNew-1.js' } });
    manifest['src/app/routes/AuthRoute.tsx'].imports.push('_IconNew-1.js');
  }
  fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dist;
}

const ROUTES = { '/auth': { budgetBytes: 150_000, lazyModules: ['src/app/routes/AuthRoute.tsx'] } };

function configFile(dist: string, routes: object = ROUTES): string {
  const file = path.join(dist, 'budget.json');
  fs.writeFileSync(file, JSON.stringify({ routes }));
  return file;
}

describe('first-route size check', () => {
  it("counts the entry and the route's lazy screen with their static imports, not other screens or CSS", () => {
    const dist = fixtureBuild({ entry: 1000, react: 1000, auth: 1000, shared: 1000, editor: 1000 });
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
    expect(routeChunks(manifest, ROUTES['/auth'].lazyModules).sort()).toEqual(['assets/AuthRoute-1.js', 'assets/Input-1.js', 'assets/index-1.js', 'assets/react-1.js']);
  });

  it('fails a build over budget and names the chunks, biggest first', () => {
    const dist = fixtureBuild({ entry: 20_000, react: 90_000, auth: 10_000, shared: 40_000, editor: 300_000 });
    const [auth] = measureFirstRoutes(dist, ROUTES);
    expect(auth!.over).toBe(true);
    expect(auth!.bytes).toBeGreaterThan(150_000);
    expect(auth!.chunks.map((c) => c.file)[0]).toBe('assets/react-1.js');

    const run = spawnSync(process.execPath, [SCRIPT, dist, '--config', configFile(dist)], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/OVER\s+\/auth: \d+\.\d kB gzip of JavaScript \(budget 150\.0 kB\)/);
    expect(run.stdout).toContain('assets/react-1.js');
    expect(run.stderr).toContain('First-route JavaScript over budget');
  });

  it('passes a build within budget, whatever the lazy screens weigh', () => {
    const dist = fixtureBuild({ entry: 20_000, react: 50_000, auth: 5_000, shared: 10_000, editor: 900_000 });
    const [auth] = measureFirstRoutes(dist, ROUTES);
    expect(auth!.over).toBe(false);
    const run = spawnSync(process.execPath, [SCRIPT, dist, '--config', configFile(dist)], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ok\s+\/auth: /);
    expect(auth!.chunks.map((c) => c.file)).not.toContain('assets/Editor-1.js');
  });

  it('refuses a route module that is missing from the build or not lazy-loaded', () => {
    const dist = fixtureBuild({ entry: 100, react: 100, auth: 100, shared: 100, editor: 100 });
    expect(() => measureFirstRoutes(dist, { '/x': { budgetBytes: 1e9, lazyModules: ['src/app/routes/Gone.tsx'] } })).toThrow(/not in the build manifest/);
    expect(() => measureFirstRoutes(dist, { '/x': { budgetBytes: 1e9, lazyModules: ['_Input-1.js'] } })).toThrow(/not lazy-loaded/);
  });

  it("counts a route's requests, its scripts and their stylesheets, and fails one more file than its budget, listing the files", () => {
    // The entry, react, the screen, the shared chunk, and the entry's stylesheet: 5 requests.
    const routes = { '/auth': { ...ROUTES['/auth'], maxRequests: 5 } };
    const within = fixtureBuild({ entry: 100, react: 100, auth: 100, shared: 100, editor: 100 });
    const [ok] = measureFirstRoutes(within, routes);
    expect(ok!.requests).toMatchObject({ count: 5, budget: 5, over: false });
    expect(ok!.requests.files).toContain('assets/index-1.css');
    expect(spawnSync(process.execPath, [SCRIPT, within, '--config', configFile(within, routes)], { encoding: 'utf8' }).status).toBe(0);

    const grown = fixtureBuild({ entry: 100, react: 100, auth: 100, shared: 100, editor: 100 }, { extraChunk: true });
    const [over] = measureFirstRoutes(grown, routes);
    expect(over!.over).toBe(false); // a few bytes: within the byte budget
    expect(over!.requests).toMatchObject({ count: 6, budget: 5, over: true });
    const run = spawnSync(process.execPath, [SCRIPT, grown, '--config', configFile(grown, routes)], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^OVER\s+\/auth: /);
    expect(run.stdout).toContain('OVER: 6 requests before the first paint (budget 5)');
    for (const file of ['assets/IconNew-1.js', 'assets/AuthRoute-1.js', 'assets/index-1.css']) expect(run.stdout).toContain(file);
    expect(run.stderr).toContain('First-route requests over budget');
    expect(run.stderr).not.toContain('JavaScript over budget');
  });

  it("counts the files a route loads after its first paint apart, against their own budget", () => {
    // The editor after /auth's paint: its chunk alone (the shared chunk is the first paint's already).
    const routes = { '/auth': { ...ROUTES['/auth'], maxRequests: 5, afterPaintModules: ['src/Editor.tsx'], maxRequestsAfterPaint: 1 } };
    const dist = fixtureBuild({ entry: 100, react: 100, auth: 100, shared: 100, editor: 100 });
    const [auth] = measureFirstRoutes(dist, routes);
    expect(auth!.afterPaintRequests).toMatchObject({ count: 1, over: false, files: ['assets/Editor-1.js'] });
    const [tight] = measureFirstRoutes(dist, { '/auth': { ...routes['/auth'], maxRequestsAfterPaint: 0 } });
    expect(tight!.afterPaintRequests.over).toBe(true);
    expect(tight!.requests.over).toBe(false);
  });
});
