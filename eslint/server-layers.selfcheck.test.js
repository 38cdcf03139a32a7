// The server's layer rules bite: ESLint, with exactly the rules of server-layers.js, lints a
// miniature sync-server tree (fixtures/server-violation) and must report every planted violation —
// and nothing in the clean files. A zone that stopped matching, or a resolver that stopped
// following `.ts` imports (no-cycle then sees no edges), fails here instead of passing silently.
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { FOLDERS, allowedFolders, serverLayers } from './server-layers.js';

const REPO = path.resolve(import.meta.dirname, '..');
const ROOT = 'eslint/fixtures/server-violation/src';

/** Each file of the fixture and the rules that must report it (none: it must lint clean). */
const expected = {
  'app.ts': [],
  'auth/session.ts': [],
  'billing/ledger.ts': ['import-x/no-restricted-paths', 'no-restricted-imports'], // a domain imports the PostgreSQL dialect's internals and pg
  'billing/prices.ts': [],
  'config/config.ts': ['import-x/no-restricted-paths'], // the settings import a domain (a type-only import)
  'db/leak.ts': ['import-x/no-restricted-paths'], // the storage imports a route
  'db/postgres/pool.ts': [],
  'db/sqlite/raw.ts': [],
  'entities/kit-user.ts': ['import-x/no-restricted-paths'], // the model imports the route kit and a root file
  'entities/model.ts': ['import-x/no-cycle', 'import-x/no-restricted-paths'], // entities → sync, and model ↔ rules
  'entities/rules.ts': ['import-x/no-cycle'],
  'progress/writing.ts': [],
  'routes/kit.ts': [],
  'story/chapters.ts': ['import-x/no-restricted-paths'], // a domain imports another domain of its row
  'story/routes.ts': [],
  'sync/hub.ts': ['import-x/no-restricted-paths'], // the protocol imports auth/, above it
  // the domain imports a route and the dialect's internals; better-sqlite3 and raw `sql` outside db/
  'sync/mutation.ts': ['import-x/no-restricted-paths', 'no-restricted-imports'],
};

/** The files the folder order (FOLDERS) must report, whatever else reports them. */
const folderViolations = ['config/config.ts', 'db/leak.ts', 'entities/kit-user.ts', 'entities/model.ts', 'story/chapters.ts', 'sync/hub.ts', 'sync/mutation.ts'];
const FOLDER_RULE = 'FOLDERS in eslint/server-layers.js';

describe('the server layer rules, on planted violations', () => {
  it('report each planted violation and nothing in the clean files', async () => {
    const eslint = new ESLint({
      cwd: REPO,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser, sourceType: 'module' } }, ...serverLayers(ROOT)],
    });
    const results = await eslint.lintFiles([ROOT]);
    const relative = (result) => path.relative(path.join(REPO, ROOT), result.filePath);
    const found = Object.fromEntries(
      results.map((result) => [relative(result), [...new Set(result.messages.map((message) => message.ruleId ?? `fatal: ${message.message}`))].sort()]),
    );
    expect(found).toEqual(expected);
    const byFolderRule = results.filter((result) => result.messages.some((message) => message.message.includes(FOLDER_RULE))).map(relative);
    expect(byFolderRule.sort()).toEqual(folderViolations);
  });

  it('order the folders without a cycle, the imports allowed within a row included', () => {
    const allowed = allowedFolders();
    const reaches = (from, to, seen = new Set()) =>
      allowed[from].some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
    expect(Object.keys(allowed).filter((folder) => reaches(folder, folder))).toEqual([]);
  });

  it('know every folder of sync-server/src (a folder missing from FOLDERS would be checked by nothing)', () => {
    const src = path.join(REPO, 'sync-server/src');
    const folders = fs.readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.sort()).toEqual(FOLDERS.flat().sort());
  });
});
