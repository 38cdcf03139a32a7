/**
 * The first load's chunk plan as data (docs/decisions/0004-first-load-chunk-plan.md): which
 * modules go into which named chunk, in the order Rolldown tries the groups. vite.config.ts turns
 * each group into a `codeSplitting.groups` entry (`chunkGroups`); `chunk-plan.test.ts` checks that
 * every path listed here exists, so a moved or renamed module fails a test instead of silently
 * leaving its group (and adding a request to a first route, which `pnpm size` counts too).
 *
 * Paths: `files` are the repository's own (from its root); `dependencies` are inside a package
 * under node_modules (from the package's name). A path ending in `/` is a folder: every module
 * below it.
 */

export interface ChunkGroup {
  /** The chunk's name (its file is `assets/<name>-<hash>.js`). */
  name: string;
  files?: readonly string[];
  dependencies?: readonly string[];
  /**
   * false (most groups): only the modules listed, not what they import — a group then never drags
   * a first route's dependency along by accident. Default: Rolldown's, true.
   */
  withDependencies?: false;
}

/** Tabler icons by name (`Pencil` is `@tabler/icons-react/dist/esm/icons/IconPencil.mjs`). */
const icons = (...names: string[]) => names.map((name) => `@tabler/icons-react/dist/esm/icons/Icon${name}.mjs`);
const mantineComponents = (...names: string[]) => names.map((name) => `@mantine/core/esm/components/${name}/`);
const mantineStyles = (...names: string[]) => names.map((name) => `@mantine/core/styles/${name}.layer.css`);
const under = (folder: string, ...names: string[]) => names.map((name) => `${folder}/${name}`);

/** The vendor chunks index.html's entry imports statically (the bundler's runtime among them). */
export const ENTRY_VENDOR_CHUNKS = ['react', 'router', 'mantine-core', 'rolldown-runtime'] as const;

export const CHUNK_PLAN: readonly ChunkGroup[] = [
  // Long-lived vendor chunks: an app update then downloads only the app's own code.
  { name: 'react', dependencies: ['react/', 'react-dom/', 'scheduler/'] },
  { name: 'router', dependencies: ['react-router/'] },
  // Mantine's styling core and the components of the first screens (/auth, the shell): one chunk
  // instead of a dozen small ones whose split shifts as screens are added. DeferredTooltip too:
  // /auth's theme toggle, the shell and the dashboard all use it (alone, a 0.6 kB chunk of its own
  // and one more request). (A separate chunk for the sign-in form's inputs and tabs takes 5.6 kB
  // off the signed-in first paint but adds 1.2 kB to /auth's, over its budget: measured.)
  {
    name: 'mantine-core',
    dependencies: [
      '@mantine/core/esm/core/',
      ...mantineComponents(
        'Input',
        'InputBase',
        'PasswordInput',
        'TextInput',
        'Tabs',
        'ActionIcon',
        'CloseButton',
        'Group',
        'Loader',
        'Button',
        'Text',
        'Title',
        'Paper',
        'Stack',
        'Center',
        'UnstyledButton',
        'Transition',
        'Anchor',
        'Badge',
      ),
      '@tabler/icons-react/dist/esm/createReactComponent.mjs',
      '@tabler/icons-react/dist/esm/defaultAttributes.mjs',
      '@mantine/hooks/esm/use-merged-ref/',
    ],
    files: ['web/src/lib/first-load/DeferredTooltip.tsx'],
  },
  // The signed-in outline (ShellSkeleton: the sidebar, the top bar, the dashboard's skeleton) with
  // the icons it shows and the small modules the screens share with it: one chunk instead of ~20
  // of a few hundred bytes each. Lighthouse's phone (and a real one over HTTP/1.1, six
  // connections) pays a round trip per file before the first paint; a chunk of its own also costs
  // ~0.1 kB of imports and exports. Only these modules, not what they import (the theme toggle and
  // the sign-in rules are /auth's too, the drawer loads later).
  {
    name: 'shell',
    withDependencies: false,
    files: [
      ...under('web/src/app/layout', 'RouteSkeleton.tsx', 'ShellSkeleton.tsx'),
      ...under(
        'web/src/features/layout',
        'Sidebar.tsx',
        'MobileNav.tsx',
        'ShellFrame.tsx',
        'initials.ts',
        'nav-links.ts',
        'sidebar-store.ts',
        'layoutClasses.ts',
        'SearchButton.tsx',
      ),
      ...under('web/src/features/progress', 'DashboardSkeleton.tsx', 'dashboardSkeletonClasses.ts'),
      'web/src/components/PageHeader.tsx',
      'packages/schema/src/rules.ts',
    ],
    dependencies: [
      ...mantineComponents('Skeleton'),
      ...icons(
        'CreditCard',
        'Feather',
        'LayoutDashboard',
        'ShoppingBag',
        'Timeline',
        'Trophy',
        'UserCog',
        'UsersGroup',
        'Pencil',
        'Archive',
        'Menu2',
        'Logout',
        'LayoutSidebarLeftCollapse',
        'LayoutSidebarLeftExpand',
        'Search',
      ),
    ],
  },
  // What both first screens (/auth and the signed-in outline) show: the theme toggle, the document
  // title, the icons of both (alone, seven chunks of 0.2–1.6 kB).
  {
    name: 'first-shared',
    withDependencies: false,
    files: [
      'web/src/features/theme/ThemeToggle.tsx',
      'web/src/features/theme/useThemePack.ts',
      'web/src/components/BrandMark.tsx',
      'web/src/components/brandMarkClasses.ts',
      'web/src/lib/useDocumentTitle.ts',
      'web/src/lib/themePackOwnership.ts',
    ],
    dependencies: icons('Books', 'Sparkles', 'Users', 'World', 'Book2', 'Ghost2', 'Leaf', 'Moon', 'Planet', 'Ripple', 'Rosette', 'Sun', 'Sunset2', 'Flame', 'Lock', 'User'),
  },
  // After the signed-in outline has painted, the shell and the dashboard needed ~25 more files. On
  // Lighthouse's phone (HTTP/1.1, six connections, 150 ms a round trip) each costs a round trip in
  // a queue, and the dashboard's LCP is these downloads, not CPU
  // (docs/measurements.md#found-by-the-benchmarks; `bench/lighthouse/lantern.ts` shows
  // Lighthouse's simulated graph). Now: zod with the schemas, Dexie, then the shell's and the
  // dashboard's Mantine components, icons, data layer and stylesheets in one chunk, beside the
  // shell's and the dashboard's own.
  //
  // What the signed-in app evaluates first, in a task of its own (app/layout/warmup.ts): zod with
  // the schemas built at module level and the text diff the word balance uses, then Dexie with the
  // local database's schema. Two files of ~30 kB, not five and not one of 61 kB: on Lighthouse's
  // phone one large file on one new connection arrived last, by ~0.2 s (TCP's slow start), and held
  // the dashboard back.
  {
    name: 'signed-in-schemas',
    withDependencies: false,
    dependencies: ['zod/', 'diff/'],
    files: [
      ...under(
        'packages/schema/src',
        'plans.ts',
        'entities.ts',
        'zod-browser.ts',
        'products.ts',
        'ids.ts',
        'billing.ts',
        'collaboration.ts',
        'word-count.ts',
        'positions.ts',
        // The Trash's and the restructure operations' rules (docs/decisions/0014-trash-and-restructure.md).
        'restructure.ts',
        // Word counts read the visible text of a chapter's markup (docs/decisions/0009).
        'markup/parse.ts',
        // The canon changes' wire schema and bodies, which the sync client's kinds table holds (docs/decisions/0017-canon-changes.md).
        'canon/wire.ts',
        // The world entries' wire schema and bodies, likewise (docs/decisions/0020-world-entries.md).
        'world/wire.ts',
        // The place-tree rules the sync client's locations check reads (docs/decisions/0021-places-inside-places.md).
        'places.ts',
      ),
      'packages/schema/src/progress/',
    ],
  },
  {
    name: 'signed-in-db',
    withDependencies: false,
    dependencies: ['dexie/'],
    files: ['packages/sync-client/src/db.ts', 'packages/sync-client/src/writing.ts', 'web/src/app/layout/warmup.ts'],
  },
  // The shell's and the dashboard's Mantine components and icons, their small data-layer modules
  // (none is a first route's), the sync client's status store, the app's sync context, Dexie's
  // React hooks, the progress feature's hook and badges, and the Mantine stylesheets only
  // signed-in screens use (chunks and files of their own before: a stylesheet several chunks
  // import is a file of its own, one more request). Not the schema's messages: /auth shows them.
  // Not the overlays (Popover, Menu, Modal, Drawer, Tooltip, Floating UI): the shell and the
  // dashboard mount them on first use (OpenedOnce, DeferredPopover — which are here), so they
  // download then; nor what only they use (ScrollArea, SegmentedControl's FloatingIndicator): a
  // module here that imports one makes its chunk, and Floating UI with it, part of the signed-in
  // path.
  {
    name: 'signed-in',
    withDependencies: false,
    files: [
      'web/src/lib/first-load/DeferredPopover.tsx',
      'web/src/lib/first-load/OpenedOnce.tsx',
      ...under(
        'web/src/lib',
        'useCurrentSeries.ts',
        'currentSeries.ts',
        'useSeriesProgress.ts',
        'useOwnedProducts.ts',
        'useSeriesRole.ts',
        'liveEvents.ts',
        'first-load/liveChannel.ts',
        'useOnline.ts',
        'chapterEditorPath.ts',
        // Start Writing asks where the caret moved last (the editor's caret memory).
        'caretMemory.ts',
        'copy/toasts.ts',
        'sync.tsx',
      ),
      'packages/sync-client/src/queries.ts',
      'packages/sync-client/src/roles.ts',
      'packages/sync-client/src/status.ts',
      // The pictures contract: the sync engine's uploads and the screens' pictures share it (docs/decisions/0023-pictures-on-the-device.md).
      'packages/sync-client/src/media/picture-format.ts',
      // The dashboard's pace panel and the picture picker draw it: one chunk of its own (and its stylesheet) otherwise.
      'web/src/components/FeatureGate.tsx',
      'web/src/features/inspiration/prompts.ts',
      ...under(
        'web/src/features/progress',
        'styles.ts',
        'hooks/useProgress.ts',
        'model/figures.ts',
        'components/BadgePanels.tsx',
        'components/AchievementIcon.tsx',
      ),
    ],
    dependencies: [
      ...mantineComponents('Grid', 'SimpleGrid', 'Progress', 'ThemeIcon', 'Alert', 'Code', 'Card', 'VisuallyHidden'),
      '@mantine/core/esm/components/Checkbox/CheckIcon.mjs',
      '@mantine/core/esm/components/Radio/RadioIcon.mjs',
      '@mantine/core/esm/components/Accordion/AccordionChevron.mjs',
      ...under('@mantine/hooks/esm', 'use-debounced-callback/', 'utils/use-callback-ref/', 'use-long-press/', 'use-window-event/', 'use-previous/', 'utils/clamp/'),
      ...icons('MapPin', 'Dots', 'Plus', 'Bulb', 'AlertTriangle', 'CircleCheck', 'CloudOff', 'CloudUpload', 'Copy', 'Download', 'X', 'Check', 'Book', 'FileText'),
      'dexie-react-hooks/',
      // The dashboard's series picker (a Select) draws its options with Combobox's CSS; the
      // writing companion's analysis, which the dashboard loads, draws a List.
      ...mantineStyles('Grid', 'SimpleGrid', 'Skeleton', 'Card', 'Combobox', 'List'),
    ],
  },
  // What the toast stack and the update prompt (after the first screen) import: the transition
  // library, Workbox's window library, Mantine's Notification. Not the two lazy modules
  // themselves: in the group, each one's chunk and the group's imported each other, and which was
  // evaluated first depended on which loaded first (toasts missing in e2e, now and then). Nor
  // Mantine's Portal or extends helper: the overlays share those.
  {
    name: 'after-paint',
    withDependencies: false,
    dependencies: [
      'react-transition-group/',
      'workbox-window/',
      ...mantineComponents('Notification'),
      ...icons('Refresh'),
      ...under('@babel/runtime/helpers/esm', 'objectWithoutPropertiesLoose.js', 'assertThisInitialized.js', 'setPrototypeOf.js', 'inheritsLoose.js'),
    ],
  },
  // The form stylesheets /auth and the signed-in screens share: one file instead of four.
  { name: 'form-styles', withDependencies: false, dependencies: mantineStyles('Input', 'Tabs', 'Alert', 'PasswordInput') },
];

/** Forward slashes, so the same paths match on every platform. */
const slashes = (id: string) => id.replaceAll('\\', '/');

/**
 * Whether the module `id` (an absolute path, as the bundler names it) is one `group` lists.
 * `root` is the repository's root.
 */
export function inGroup(group: ChunkGroup, id: string, root: string): boolean {
  const module = slashes(id);
  const base = `${slashes(root).replace(/\/$/, '')}/`;
  const own = (group.files ?? []).some((file) => (file.endsWith('/') ? module.startsWith(base + file) : module === base + file));
  if (own) return true;
  return (group.dependencies ?? []).some((dep) => (dep.endsWith('/') ? module.includes(`/node_modules/${dep}`) : module.endsWith(`/node_modules/${dep}`)));
}

/** The plan as Rolldown's `codeSplitting.groups`. */
export function chunkGroups(root: string, plan: readonly ChunkGroup[] = CHUNK_PLAN) {
  return plan.map((group) => ({
    name: group.name,
    test: (id: string) => inGroup(group, id, root),
    ...(group.withDependencies === false ? { includeDependenciesRecursively: false } : null),
  }));
}
