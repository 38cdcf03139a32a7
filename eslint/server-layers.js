// The server's layers, checked by lint (the storage's part: sync-server/src/db/README.md):
//
// Folders. Each folder of sync-server/src imports only the folders below it (FOLDERS: one row per
// level, lowest first; a folder never imports another of its own row but for DOMAIN_EDGES), so the
// folders never form a cycle (the self-check also proves DOMAIN_EDGES keeps it so):
//
//   domains  — ai/, backup/, billing/, collaboration/, media/, progress/, story/, web/: one per feature;
//              they hear one another's writes through sync/ (sync/story-writes.ts), not by import
//   auth/    — accounts and sessions; forgets cached sessions as a commit effect (a hub listener)
//   routes/  — the route kit every domain plugin uses (routes/kit.ts: write, ok, noBody, idParams)
//   sync/    — the protocol: the one write path, the update and create steps, the hub, the feed
//   entities/— the model
//   http/    — errors, JSON, the caller of a request (http/caller.ts: requireUser), hooks
//   config/, db/, workers/ — the settings, the storage, and the worker-thread pool for heavy work
//
// The files at the root of src (app.ts, main.ts, cli.ts, repository.ts, runtime.ts) compose the
// folders; no folder imports them.
//
// Files. Within the folders:
//
//   routes  — Fastify plugins and route files: app.ts, main.ts, cli.ts, */plugin.ts, story/**,
//             sync/batch.ts, sync/events.ts
//     ↓
//   domain  — rules and entity logic: entities/**, sync/** (the rest), auth/** (the rest), http/**,
//             config/**, routes/** (the kit), ai/** (the rest: the writing companion's allowance
//             and providers)
//     ↓
//   db      — the storage: db/**, which imports nothing above it; its SQLite and PostgreSQL dialects
//             (db/sqlite/**, db/postgres/**) are reached from outside db/ only through db/dialect.ts
//             and db/database.ts
//
// Routes may use the storage directly (app.ts opens it, a batch opens a shared transaction). No
// import cycles anywhere. Raw SQL (kysely's `sql`), better-sqlite3 and pg stay inside db/.
//
// `serverLayers(root)` builds the rules for a source root (relative to the repository); the
// default export applies them to sync-server/src, and eslint/server-layers.selfcheck.test.js
// (`pnpm lint:selfcheck`) applies them to a fixture with planted violations to show they bite.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folders of sync-server/src, one row per level, lowest first: a folder imports only folders of lower rows. */
export const FOLDERS = [
  ['db', 'config', 'workers'],
  ['http'],
  ['entities'],
  ['sync'],
  ['routes'],
  ['auth'],
  ['ai', 'backup', 'billing', 'collaboration', 'media', 'progress', 'story', 'web'],
];

/** The imports allowed between folders of one row: a restore credits the edit log's words (backup/restore-author.ts) and brings pictures back (media/). */
export const DOMAIN_EDGES = { backup: ['progress', 'media'] };

/** For each folder, the folders it may import (FOLDERS, DOMAIN_EDGES). */
export function allowedFolders() {
  return Object.fromEntries(
    FOLDERS.flatMap((row, level) =>
      row.map((folder) => [folder, [...FOLDERS.slice(0, level).flat(), ...(DOMAIN_EDGES[folder] ?? [])]]),
    ),
  );
}

export function serverLayers(root = 'sync-server/src') {
  const at = (glob) => path.join(REPO, root, glob);
  // Every `from` of a zone must be a glob (import-x): hence the braces.
  const routes = ['{app,main,cli}.ts', '*/plugin.ts', 'story/**', 'sync/{batch,events}.ts'].map(at);
  const domain = ['entities/**', 'http/**', 'config/**', 'routes/**', 'auth/!(plugin).ts', 'sync/!(batch|events|plugin).ts', 'ai/!(plugin).ts'].map(at);
  const allowed = allowedFolders();
  const folders = Object.keys(allowed);
  // One zone per folder: every other folder it may not import, and the root files.
  const folderZones = folders.map((folder) => ({
    target: at(`${folder}/**`),
    from: [...folders.filter((other) => other !== folder && !allowed[folder].includes(other)).map((other) => at(`${other}/**`)), at('*.ts')],
    message:
      `${folder}/ may import ${allowed[folder].length === 0 ? 'no other folder' : `${allowed[folder].map((f) => `${f}/`).join(', ')} only`}, and no root ` +
      'file (app.ts, cli.ts, …): the server folders depend one way (FOLDERS in eslint/server-layers.js).',
  }));
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
              ...folderZones,
              {
                target: [at('!(db)/**'), at('*.ts')],
                from: [at('db/sqlite/**')],
                message: 'SQLite-only code is reached through db/dialect.ts (sync-server/src/db/README.md).',
              },
              {
                target: [at('!(db)/**'), at('*.ts')],
                from: [at('db/postgres/**')],
                message: 'PostgreSQL-only code is reached through db/dialect.ts and db/database.ts (sync-server/src/db/README.md).',
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
              { name: 'pg', message: 'The PostgreSQL pool is the storage’s own: use db/ (db/README.md).' },
              { name: 'kysely', importNames: ['sql'], message: 'Raw SQL lives in the storage’s dialects (db/sqlite/, db/postgres/, through db/dialect.ts).' },
            ],
          },
        ],
      },
    },
  ];
}

export default serverLayers();
