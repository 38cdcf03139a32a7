/**
 * The real server bundled unminified for a CPU profile that names lines (server-http.ts
 * `--profile DIR --readable`). tsx compiles each file to ONE minified line, so a profile of the
 * server as it runs says which function but not which line — and V8 charges the work of builtins
 * (a string comparison, a flatten) to whatever function called them, which hid a 6 KB
 * `startsWith` per save in an anonymous closure for sessions (bench/JOURNAL.md, "the save's
 * JavaScript found by line, and group commit that waits for its wave"). The
 * bundle keeps our code readable line by line; packages stay external but better-sqlite3's native
 * module, and it is written inside sync-server so that its dependencies resolve as they do for
 * the server itself.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { BENCH_DIR } from './setting.ts';

/** Builds servers/chronicler.ts into sync-server/.bench-bundle/ and answers the bundle's path. */
export async function readableServer(): Promise<string> {
  const outfile = path.join(BENCH_DIR, '../sync-server/.bench-bundle/chronicler.mjs');
  await build({
    entryPoints: [path.join(BENCH_DIR, 'servers/chronicler.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['better-sqlite3'],
    // Bundled CommonJS dependencies call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}
