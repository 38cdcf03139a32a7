// The layer rules bite: ESLint, with exactly the rules of web-layers.js, lints a miniature tree
// (fixtures/) and must report every planted violation — and nothing in the clean files. A rule that
// stopped resolving `@/…` imports, or a zone that stopped matching, fails here instead of passing
// silently in the real run.
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { importResolution } from './imports.js';
import { webLayers } from './web-layers.js';
import serverLayers from './server-layers.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const ERROR = 2;

/** Each planted violation: the file, and what ESLint must say about it (rule, severity). */
const planted = {
  'web/src/features/drafts/violates-imports-another-feature.ts': [['import-x/no-restricted-paths', ERROR]],
  'web/src/features/notes/violates-imports-app.ts': [['import-x/no-restricted-paths', ERROR]],
  'web/src/features/notes/violates-test-imports-another-feature.test.ts': [['import-x/no-restricted-paths', ERROR]],
  'web/src/components/violates-imports-feature.tsx': [['import-x/no-restricted-paths', ERROR]],
  'web/src/lib/violates-imports-feature.ts': [['import-x/no-restricted-paths', ERROR]],
  'web/src/lib/violates-imports-component.ts': [['import-x/no-restricted-paths', ERROR]],
  'web/src/lib/violates-imports-test-harness.ts': [['import-x/no-restricted-paths', ERROR]],
  'web/src/lib/violates-imports-server.ts': [['no-restricted-imports', ERROR]],
  'web/src/features/notes/violates-imports-mantine-overlay.tsx': [['no-restricted-imports', ERROR]],
  'web/src/components/violates-imports-mantine-tooltip.tsx': [['no-restricted-imports', ERROR]],
  'web/src/lib/violates-cycle-a.ts': [['import-x/no-cycle', ERROR]],
  'web/src/lib/violates-cycle-b.ts': [['import-x/no-cycle', ERROR]],
  'packages/sync-client/src/violates-imports-react-ui.tsx': [['no-restricted-imports', ERROR]],
  'packages/sync-client/src/violates-imports-web.ts': [['import-x/no-restricted-paths', ERROR]],
  'packages/schema/src/violates-imports-client.ts': [['import-x/no-restricted-paths', ERROR]],
  'packages/companion/src/violates-imports-web.ts': [['import-x/no-restricted-paths', ERROR]],
  'packages/companion/src/violates-imports-react-ui.tsx': [['no-restricted-imports', ERROR]],
};

async function lintFixtures() {
  const eslint = new ESLint({
    cwd: fixtures,
    overrideConfigFile: true,
    overrideConfig: [
      // The parser only: any message below comes from a layer rule.
      { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser, sourceType: 'module' } },
      importResolution(fixtures),
      ...webLayers(fixtures),
      // As in eslint.config.js: a server rule whose files pattern reached into web (and so replaced
      // a web rule's options) would show up here as a missing or extra message.
      ...serverLayers,
    ],
  });
  const results = await eslint.lintFiles(['.']);
  return new Map(results.map((r) => [path.relative(fixtures, r.filePath), r.messages]));
}

describe('the layer rules, on planted violations', () => {
  it('report each planted violation and nothing in the clean files', async () => {
    const byFile = await lintFixtures();

    const found = Object.fromEntries(
      [...byFile].map(([file, messages]) => [file, messages.map((m) => [m.ruleId ?? `fatal: ${m.message}`, m.severity])]),
    );
    const expected = Object.fromEntries([...byFile.keys()].map((file) => [file, planted[file] ?? []]));
    expect(found).toEqual(expected);

    // Every planted file was linted (none skipped by a files/ignores pattern) and named here.
    expect(Object.keys(planted).filter((file) => !byFile.has(file))).toEqual([]);
    expect([...byFile.keys()].filter((file) => path.basename(file).startsWith('violates-') && !(file in planted))).toEqual([]);
    // The clean side is not empty: the app, the harness, a feature's test, a type-only cycle, the
    // overlays' home and a feature taking its overlay from there.
    for (const clean of [
      'web/src/app/App.tsx',
      'web/src/test/render.tsx',
      'web/src/features/drafts/DraftList.test.tsx',
      'web/src/lib/type-cycle-a.ts',
      'web/src/lib/first-load/overlays.ts',
      'web/src/features/notes/NoteCard.tsx',
    ]) {
      expect(byFile.get(clean)).toEqual([]);
    }
  });
});
