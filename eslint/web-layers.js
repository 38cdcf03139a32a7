// The web app's layers, checked on every `pnpm lint` (Bulletproof React's shape):
//
//   web/src/app  →  web/src/features/*  →  web/src/components  →  web/src/lib
//        →  @chronicler/sync-client (packages/sync-client)  →  @chronicler/schema
//
// An arrow means "may import"; nothing points back up, features never import each other, and no
// file in web or the packages is part of an import cycle (type-only imports excepted: they vanish
// at build time). Tests follow the layer they sit in, plus the test harness (web/src/test), which
// may compose anything and which production code never imports.
//
// The sync client's React bindings: the hooks that features and components call (useSync, useDb,
// useMutators…) sit below them, in web/src/lib; only the provider component belongs in app/.
import fs from 'node:fs';
import path from 'node:path';

const WEB = 'web/src';
const APP = `${WEB}/app`;
const FEATURES = `${WEB}/features`;
const COMPONENTS = `${WEB}/components`;
const LIB = `${WEB}/lib`;
const ENTRY = `${WEB}/main.tsx`;
const HARNESS = `${WEB}/test`;
const CLIENT = 'packages/sync-client';
const SCHEMA = 'packages/schema';
/** The writing companion's pure rules: beside the sync client, above the schema. */
const COMPANION = 'packages/companion';

/**
 * Test helpers in folders another change owns that still cross a layer (the editor's test-utils
 * imports the theme feature): warned until they render through web/src/test/render's
 * renderInTheme; then this list is emptied.
 */
const PENDING_TEST_FILES = ['web/src/features/editor/test-utils.tsx'];

const CODE = '**/*.{ts,tsx}';
/** Every file these rules look at (the server's rules are in server-layers.js). */
const LINTED = [`${WEB}/${CODE}`, `packages/${CODE}`];
/** Test code: it may also use the harness; production code may not import it. */
const TEST_FILES = [WEB, 'packages'].flatMap((dir) => [
  `${dir}/**/*.test.{ts,tsx}`,
  `${dir}/**/test-utils.{ts,tsx}`,
  `${dir}/**/testing/${CODE}`,
]).concat(`${HARNESS}/${CODE}`);

const UI_PACKAGES = ['react', 'react/*', 'react-dom', 'react-dom/*', 'react-router', '@mantine/*', '@tabler/*', '@testing-library/*', 'dexie-react-hooks'];

/** @param {string} rootDir */
function featureNames(rootDir) {
  const dir = path.join(rootDir, FEATURES);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** Who may not import whom, for every layer of web and the packages below it. */
function layerZones(rootDir) {
  return [
    ...featureNames(rootDir).map((name) => ({
      target: `${FEATURES}/${name}`,
      from: FEATURES,
      except: [`./${name}`],
      message: 'A feature never imports another feature: move the shared piece to components/ or lib/, or let app/ compose them.',
    })),
    {
      target: FEATURES,
      from: [APP, ENTRY],
      message: 'features/ sit below app/: take what is needed as props or from a provider instead.',
    },
    {
      target: COMPONENTS,
      from: [FEATURES, APP, ENTRY],
      message: 'components/ are shared UI below features/ and app/.',
    },
    {
      target: LIB,
      from: [COMPONENTS, FEATURES, APP, ENTRY],
      message: 'lib/ is below components/, features/ and app/.',
    },
    {
      target: CLIENT,
      from: ['web', 'sync-server'],
      message: 'The sync client sits below the web app and beside the server: it imports neither.',
    },
    {
      target: SCHEMA,
      from: ['web', 'sync-server', CLIENT],
      message: '@chronicler/schema is the bottom layer: it imports no other part of the project.',
    },
    {
      target: COMPANION,
      from: ['web', 'sync-server', CLIENT],
      message: '@chronicler/companion is pure rules on @chronicler/schema: it imports neither the apps nor the sync client.',
    },
  ];
}

function harnessZones() {
  return [
    {
      target: WEB,
      from: HARNESS,
      message: 'web/src/test is the test harness: production code never imports it.',
    },
  ];
}

/**
 * The app's overlays have one home (web/src/lib/first-load, its README): a closed Mantine overlay
 * mounted in a first screen costs a synchronous re-render in its first commit and Floating UI's
 * download, so every tooltip, popover, menu, modal and drawer is imported from there.
 */
const FIRST_LOAD_HOME = `${LIB}/first-load`;
const MANTINE_OVERLAYS = ['Tooltip', 'Popover', 'HoverCard', 'Menu', 'Modal', 'Drawer', 'Dialog'];
const overlaysFromTheHome = {
  name: '@mantine/core',
  importNames: MANTINE_OVERLAYS,
  message:
    "Overlays come from '@/lib/first-load' (DeferredTooltip, DeferredPopover, OpenedOnce, and Modal, Drawer, Menu, Popover for lazy layers and lazy screens): its README says which to use where.",
};

const noServerInWeb = {
  group: ['@chronicler/sync-server', '@chronicler/sync-server/*', '**/sync-server/**'],
  message: 'web never depends on the server: shared rules live in @chronicler/schema; tests that need both live in a package of their own.',
};
const noUiInClient = {
  group: UI_PACKAGES,
  message: 'The sync client has no React or UI: bindings live in the web app (app/ for the provider, lib/ for hooks).',
};
const noWebInClient = {
  group: ['@chronicler/web', '@chronicler/web/*', '@chronicler/sync-server', '@chronicler/sync-server/*'],
  message: 'The sync client imports neither the web app nor the server.',
};

/**
 * The web layer rules as flat-config objects.
 * @param {string} rootDir absolute path of the tree being linted (the repository, or the self-check's fixture tree)
 */
export function webLayers(rootDir) {
  const restrictedPaths = (severity, zones) => ({ 'import-x/no-restricted-paths': [severity, { basePath: rootDir, zones }] });
  return [
    {
      name: 'web-layers/production',
      files: LINTED,
      ignores: TEST_FILES,
      rules: restrictedPaths('error', [...layerZones(rootDir), ...harnessZones()]),
    },
    {
      name: 'web-layers/tests',
      files: TEST_FILES,
      rules: restrictedPaths('error', layerZones(rootDir)),
    },
    {
      name: 'web-layers/no-cycles',
      files: LINTED,
      rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
    },
    // One rule object per file set: a later object's no-restricted-imports replaces an earlier one's options.
    {
      name: 'web-layers/web-without-server-overlays-from-home',
      files: [`${WEB}/${CODE}`],
      ignores: [`${FIRST_LOAD_HOME}/**`],
      rules: { 'no-restricted-imports': ['error', { patterns: [noServerInWeb], paths: [overlaysFromTheHome] }] },
    },
    {
      name: 'web-layers/web-without-server-first-load-home',
      files: [`${FIRST_LOAD_HOME}/${CODE}`],
      rules: { 'no-restricted-imports': ['error', { patterns: [noServerInWeb] }] },
    },
    {
      name: 'web-layers/client-package',
      files: [`${CLIENT}/${CODE}`],
      rules: { 'no-restricted-imports': ['error', { patterns: [noUiInClient, noWebInClient] }] },
    },
    {
      name: 'web-layers/schema-package',
      files: [`${SCHEMA}/${CODE}`],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [{ group: ['@chronicler/*', ...UI_PACKAGES], message: '@chronicler/schema imports no other workspace package and no UI.' }] },
        ],
      },
    },
    {
      name: 'web-layers/companion-package',
      files: [`${COMPANION}/${CODE}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['@chronicler/*', '!@chronicler/schema', ...UI_PACKAGES],
                message: '@chronicler/companion imports only @chronicler/schema and no UI.',
              },
            ],
          },
        ],
      },
    },
    {
      name: 'web-layers/pending-test-files',
      files: PENDING_TEST_FILES,
      rules: restrictedPaths('warn', layerZones(rootDir)),
    },
  ];
}

const repoRoot = path.resolve(import.meta.dirname, '..');
export default webLayers(repoRoot);
