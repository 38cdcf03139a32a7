// The server's layers, checked by lint (issue 9, deliverable 3; sync-server/src/db/README.md):
//
//   routes  — Fastify plugins and route files: app.ts, main.ts, cli.ts, */plugin.ts, story/**,
//             sync/batch.ts, sync/events.ts
//     ↓
//   domain  — rules and entity logic: entities/**, sync/** (the rest), auth/** (the rest), http/**,
//             config.ts, ai/** (the rest: the writing companion's allowance and providers); entities/ (the model) sits below sync/ (the protocol) and never imports it
//     ↓
//   db      — the storage: db/**, which imports nothing above it; its SQLite dialect (db/sqlite/**)
//             is reached from outside db/ only through db/dialect.ts
//
// Routes may use the storage directly (app.ts opens it, a batch opens a shared transaction). No
// import cycles anywhere. Raw SQL (kysely's `sql`) and better-sqlite3 stay inside db/.
//
// `serverLayers(root)` builds the rules for a source root (relative to the repository); the
// default export applies them to sync-server/src, and eslint/server-layers.selfcheck.test.js
// (`pnpm lint:selfcheck`) applies them to a fixture with planted violations to show they bite.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function serverLayers(root = 'sync-server/src') {
  const at = (glob) => path.join(REPO, root, glob);
  // Every `from` of a zone must be a glob (import-x): hence the braces.
  const routes = ['{app,main,cli}.ts', '*/plugin.ts', 'story/**', 'sync/{batch,events}.ts'].map(at);
  const domain = ['entities/**', 'http/**', 'config.ts', 'auth/!(plugin).ts', 'sync/!(batch|events|plugin).ts', 'ai/!(plugin).ts'].map(at);
  return [
    {
      files: [`${root}/**/*.ts`],
      plugins: { 'import-x': importX },
      settings: {
        'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
        // Without it import-x reads no .ts file it is led to, and no-cycle sees no cycle.
        'import-x/extensions': ['.ts', '.js'],
      },
      rules: {
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        'import-x/no-restricted-paths': [
          'error',
          {
            basePath: REPO,
            zones: [
              {
                target: at('db/**'),
                from: [at('**')],
                except: [at('db/**')],
                message: 'db/ is the bottom layer: the storage imports nothing from the domain or the routes.',
              },
              { target: domain, from: routes, message: 'The domain never imports routes (routes → domain → db).' },
              {
                target: at('entities/**'),
                from: [at('sync/**')],
                message: 'entities/ is the model the sync protocol builds on: sync/ imports entities/, never the reverse.',
              },
              {
                target: [at('!(db)/**'), at('*.ts')],
                from: [at('db/sqlite/**')],
                message: 'SQLite-only code is reached through db/dialect.ts (sync-server/src/db/README.md).',
              },
            ],
          },
        ],
      },
    },
    {
      files: [`${root}/**/*.ts`],
      ignores: [`${root}/db/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [
              { name: 'better-sqlite3', message: 'The SQLite connection is the storage’s own: use db/ (db/README.md).' },
              { name: 'kysely', importNames: ['sql'], message: 'Raw SQL lives in the storage’s dialect (db/sqlite/, through db/dialect.ts).' },
            ],
          },
        ],
      },
    },
  ];
}

export default serverLayers();
