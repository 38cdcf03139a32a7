/**
 * Builds the sync benches' test page: bench/browser/page/entry.ts — which imports the web app's
 * real sync client (@chronicler/sync-client) — bundled by esbuild (production mode, minified as a shipped build is
 * unless a profile is asked for) into a temp folder with an index.html. The real server serves that folder as its WEB_DIST,
 * so the page runs on the API's own origin: the session cookie and IndexedDB work as in the app.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

const ENTRY = path.join(import.meta.dirname, 'page/entry.ts');

export interface PageDir {
  dir: string;
  /** Size of the bundle, for the report. */
  bytes: number;
  remove(): void;
}

/** `minify: false` keeps function names readable in a CPU profile. */
export async function buildSyncPage({ minify = true }: { minify?: boolean } = {}): Promise<PageDir> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-sync-page-'));
  const result = await build({
    entryPoints: [ENTRY],
    outfile: path.join(dir, 'bench.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    sourcemap: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
    metafile: true,
  });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>sync bench</title></head><body><script type="module" src="/bench.js"></script></body></html>\n',
  );
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { dir, bytes, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
