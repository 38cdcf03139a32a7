// How ESLint resolves imports for the layer rules (web-layers.js, server-layers.js): the
// import-x plugin with the TypeScript resolver, so `@/…` aliases and workspace packages resolve to
// real files. A rule such as no-restricted-paths silently ignores an import it cannot resolve,
// which is why the self-check (layers.selfcheck.test.js) plants violations behind aliases too.
import path from 'node:path';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** @param {string} rootDir absolute path of the tree being linted (the repository, or a fixture tree) */
export function importResolution(rootDir) {
  return {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x does not parse .ts/.tsx files it follows, and no-cycle sees no
      // edges at all (the self-check caught exactly that).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Keep resolutions for the whole run (default: 30 s, which a loaded machine outlasts); an
      // editor's ESLint server sees files created later once it restarts.
      'import-x/cache': { lifetime: '∞' },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
          // Each file is resolved with the nearest of these, so web's `@/*` paths apply to web only.
          project: ['web/tsconfig.json', 'packages/*/tsconfig.json', 'sync-server/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'].map(
            (p) => path.join(rootDir, p),
          ),
        }),
      ],
    },
  };
}
