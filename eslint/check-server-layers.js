// Shows that eslint/server-layers.js bites: lints the planted violations in
// eslint/fixtures/server-violation with those rules alone and fails unless each one is reported
// (and the clean files stay clean). Run by `pnpm lint`.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { serverLayers } from './server-layers.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = 'eslint/fixtures/server-violation/src';

const eslint = new ESLint({
  cwd: REPO,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...serverLayers(ROOT)],
});
const results = await eslint.lintFiles([ROOT]);

/** "file: ruleId" for every message, file relative to the fixture root. */
const found = new Set(
  results.flatMap((result) =>
    result.messages.map((message) => `${path.relative(path.join(REPO, ROOT), result.filePath)}: ${message.ruleId ?? message.message}`),
  ),
);

const expected = [
  'db/leak.ts: import-x/no-restricted-paths', // db imports a route
  'entities/model.ts: import-x/no-restricted-paths', // entities imports sync
  'entities/model.ts: import-x/no-cycle', // model ↔ rules
  'entities/rules.ts: import-x/no-cycle',
  'sync/mutation.ts: import-x/no-restricted-paths', // domain imports a route / the dialect's internals
  'sync/mutation.ts: no-restricted-imports', // better-sqlite3 and raw sql outside db/
];
const missing = expected.filter((entry) => !found.has(entry));
assert.deepEqual(missing, [], `server layer rules did not report: ${missing.join('; ')}\nfound: ${[...found].join('; ')}`);

for (const clean of ['story/routes.ts', 'db/sqlite/raw.ts']) {
  const reported = [...found].filter((entry) => entry.startsWith(`${clean}:`));
  assert.deepEqual(reported, [], `${clean} should lint clean`);
}
const count = results.reduce((n, result) => n + result.errorCount, 0);
console.log(`server layers: the planted violations were reported (${count} errors in ${ROOT})`);
