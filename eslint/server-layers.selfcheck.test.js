// The server's layer rules bite: ESLint, with exactly the rules of server-layers.js, lints a
// miniature sync-server tree (fixtures/server-violation) and must report every planted violation —
// and nothing in the clean files. A zone that stopped matching, or a resolver that stopped
// following `.ts` imports (no-cycle then sees no edges), fails here instead of passing silently.
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { serverLayers } from './server-layers.js';

const REPO = path.resolve(import.meta.dirname, '..');
const ROOT = 'eslint/fixtures/server-violation/src';

/** Each file of the fixture and the rules that must report it (none: it must lint clean). */
const expected = {
  'db/leak.ts': ['import-x/no-restricted-paths'], // the storage imports a route
  'db/sqlite/raw.ts': [],
  'entities/model.ts': ['import-x/no-cycle', 'import-x/no-restricted-paths'], // entities → sync, and model ↔ rules
  'entities/rules.ts': ['import-x/no-cycle'],
  'story/routes.ts': [],
  // the domain imports a route and the dialect's internals; better-sqlite3 and raw `sql` outside db/
  'sync/mutation.ts': ['import-x/no-restricted-paths', 'no-restricted-imports'],
};

describe('the server layer rules, on planted violations', () => {
  it('report each planted violation and nothing in the clean files', async () => {
    const eslint = new ESLint({
      cwd: REPO,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser, sourceType: 'module' } }, ...serverLayers(ROOT)],
    });
    const results = await eslint.lintFiles([ROOT]);
    const found = Object.fromEntries(
      results.map((result) => [
        path.relative(path.join(REPO, ROOT), result.filePath),
        [...new Set(result.messages.map((message) => message.ruleId ?? `fatal: ${message.message}`))].sort(),
      ]),
    );
    expect(found).toEqual(expected);
  });
});
