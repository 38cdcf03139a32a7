/**
 * `pnpm bench`: every bench in turn, each in its own process so one's servers and heap never
 * disturb the next. Exits non-zero if any bench did (a missed target does so only with
 * BENCH_STRICT=1; a crash always does).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const BENCHES = [
  'server-http.ts',
  'changes-bootstrap.ts',
  'sync-initial-dexie.ts',
  'sync-flush-outbox.ts',
  'text-merge.ts',
  'editor-typing.ts',
  'progress.ts',
  'companion.ts',
  'collab-live.ts',
  'lighthouse.ts',
  'export-formats.ts',
  'backup-restore.ts',
  'search.ts',
  'chapter-move.ts',
  'media.ts',
  // PostgreSQL (BENCH_DATABASE_URL names a running server; each makes and drops its own databases).
  'postgres.ts',
  'soak.ts',
  'continuity.ts',
];
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let failed = 0;
for (const bench of BENCHES) {
  console.log(`\n=== ${bench} ===\n`);
  if (bench === 'editor-typing.ts' || bench === 'lighthouse.ts') {
    // These benches drive the built PWA the server serves: build it from this checkout.
    const build = spawnSync('pnpm', ['--filter', '@chronicler/web', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) {
      failed += 1;
      continue;
    }
  }
  // search.ts weighs the index's heap after a collection, which needs --expose-gc.
  const nodeFlags = bench === 'search.ts' ? ['--expose-gc'] : [];
  const { status } = spawnSync(process.execPath, [...nodeFlags, '--import', tsxLoader, path.join(import.meta.dirname, bench)], { stdio: 'inherit' });
  if (status !== 0) failed += 1;
}
process.exitCode = failed > 0 ? 1 : 0;
