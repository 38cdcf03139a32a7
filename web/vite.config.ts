/// <reference types="vitest/config" />
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { ENTRY_VENDOR_CHUNKS, chunkGroups } from './build/chunk-plan.ts';
import { manifestGroupedEntries } from './build/manifest-grouped-entries.ts';
import { routePreload } from './build/route-preload.ts';

/** Where the dev and preview servers send /api (the sync server). */
const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:3000';
/** SOURCE_MAPS=true writes source maps (the server then serves them too; README "Configuration"). */
const sourceMaps = process.env.SOURCE_MAPS === 'true';
/** The vendor chunks (build/chunk-plan.ts) that index.html's entry imports statically. */
const ENTRY_VENDOR_CHUNK = new RegExp(`^assets/(${ENTRY_VENDOR_CHUNKS.join('|')})-[\\w-]+\\.js$`);
/** The repository's root: the chunk plan's paths start there. */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Mantine's `useId` (@mantine/hooks) renders with React's id, then swaps it for a random one in a
 * layout effect: every input, tab, popover, menu and modal thus set state as it mounted, and React
 * re-rendered them — with everything below them — synchronously, inside the commit that first drew
 * them (~30–55 ms of the signed-in shell's first commit, ×4 on a phone; the sign-in form's
 * too). The app is one React root, so React's id is unique and stable: it is kept.
 */
function mantineStableIds(): Plugin {
  let building = false;
  let replaced = false;
  return {
    name: 'chronicler-mantine-stable-ids',
    enforce: 'pre',
    configResolved(config) {
      building = config.command === 'build';
    },
    load(id) {
      if (!/[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/.test(id)) return null;
      replaced = true;
      return [
        "import { useId as useReactId } from 'react';",
        'export function useId(staticId) {',
        '  const reactId = useReactId();',
        "  return typeof staticId === 'string' ? staticId : `mantine-${reactId.replace(/:/g, '')}`;",
        '}',
      ].join('\n');
    },
    // A Mantine release that moves the file would silently bring the synchronous re-renders back.
    buildEnd(error) {
      if (building && !error && !replaced) this.error('@mantine/hooks use-id.mjs was not found where mantineStableIds expects it: update its path');
    },
  };
}

/**
 * index.html's SVG favicon, inlined as a data URL (public/favicon.svg stays the one source):
 * fetched, it was one request of the first load's, queued on a phone's six connections ahead of
 * Mantine's core and, through it, of the dashboard (~0.15 s of LCP in Lighthouse's graph:
 * bench/JOURNAL.md, "signed-in `/` first load — Lighthouse's LCP is the downloads, not the CPU").
 * The CSP allows data: images. Fails the build when the link is not where it expects it.
 */
function inlineFavicon(publicDir: string): Plugin {
  return {
    name: 'chronicler-inline-favicon',
    apply: 'build',
    transformIndexHtml(html) {
      const link = 'href="/favicon.svg"';
      if (!html.includes(link)) this.error('inlineFavicon: index.html has no href="/favicon.svg" to inline');
      const svg = fs
        .readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8')
        .replace(/\s+/g, ' ')
        .trim()
        .replaceAll('"', "'");
      // The few characters a data URL in an attribute must escape (the rest stays readable and compresses well).
      const encoded = svg.replace(/[%#<>?[\]\\^`{|}]/g, (char) => encodeURIComponent(char));
      return html.replace(link, `href="data:image/svg+xml,${encoded}"`);
    },
  };
}

/**
 * Takes the web app manifest's link out of index.html: the app links it after its first screen
 * (src/lib/first-load/webManifest.ts says why). Fails the build when the link is not where it expects it.
 */
function deferWebManifest(): Plugin {
  return {
    name: 'chronicler-defer-web-manifest',
    apply: 'build',
    // After vite-plugin-pwa's build plugin, which adds the link (it is `post` too, and listed first).
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const link = /\s*<link rel="manifest" href="\/manifest\.webmanifest"\s*\/?>/;
        if (!link.test(html)) this.error('deferWebManifest: index.html has no <link rel="manifest" href="/manifest.webmanifest"> to take out');
        return html.replace(link, '');
      },
    },
  };
}

const proxy: Record<string, ProxyOptions> = {
  '/api': { target: apiUrl, changeOrigin: false, ws: false },
};

export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  plugins: [
    mantineStableIds(),
    react(),
    routePreload(fileURLToPath(new URL('./first-route-budget.json', import.meta.url)), fileURLToPath(new URL('.', import.meta.url))),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/*.png'],
      manifest: {
        id: '/',
        name: 'Chronicler',
        short_name: 'Chronicler',
        description: 'Plan, write and track your book series, online or offline.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#3b3fc4',
        background_color: '#f5f5fa',
        categories: ['productivity', 'books'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell only: built JS/CSS/HTML and the icons. Data never goes through the cache.
        // ttf: the fonts PDF exports embed, so exporting works offline.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,ttf}'],
        // Export fonts for other scripts (Noto CJK and emoji, megabytes each) are not precached: the
        // export worker fetches them on first need and keeps them (features/export/font-urls.ts).
        globIgnores: ['**/Noto*.ttf'],
        // The export worker (docx, pdf-lib) is one chunk above Workbox's 2 MiB default.
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        cleanupOutdatedCaches: true,
        sourcemap: sourceMaps,
        clientsClaim: false,
        skipWaiting: false,
        // No route for /api: the worker leaves those requests to the browser, which sends them
        // itself (network-only, never cached). Answered by the worker (a NetworkOnly route), a
        // request sent as the page goes away — the chapter's presence goodbye, a keepalive fetch at
        // `pagehide` — never reached the server, and the author stayed "here" for the others until
        // the presence expired (e2e/tests/collaboration.spec.ts).
      },
      devOptions: { enabled: false },
    }),
    deferWebManifest(),
    manifestGroupedEntries(fileURLToPath(new URL('.', import.meta.url))),
    inlineFavicon(fileURLToPath(new URL('./public', import.meta.url))),
  ],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: sourceMaps,
    // dist/.vite/manifest.json: the chunk graph the first-route size check reads (scripts/first-route-size.mjs).
    manifest: true,
    // Every browser the app supports preloads modules itself (Chrome 66, Safari 17, Firefox 115).
    modulePreload: {
      polyfill: false,
      // Every lazy import carries the list of chunks to preload with it, in the entry. The vendor
      // chunks the entry itself imports are loaded before any lazy import can run: listing them in
      // each of ~40 lists only made the entry bigger (the first-route JavaScript budget).
      // index.html keeps them: the browser then fetches them beside the entry instead of after
      // reading it (one round trip less before the first paint).
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : deps.filter((dep) => !ENTRY_VENDOR_CHUNK.test(dep))),
    },
    target: 'es2022',
    rolldownOptions: {
      // Schemas built at module level (`z.object(...)`) are kept only where used: zod stays out of
      // chunks that merely share a module with a schema (the first route needs no zod).
      // Feature barrels (features/<x>/index.ts) and lib/first-load's only re-export: marked
      // side-effect free, a screen that imports one export of a feature does not pull the feature's
      // other modules into its chunk (the auth screen's theme toggle without the sidebar's theme
      // menu), nor does /auth's first paint pull the signed-in overlays.
      treeshake: { manualPureFunctions: ['z', 'deepFreeze'], moduleSideEffects: (id: string) => !/[\\/]src[\\/](features[\\/][^\\/]+|lib[\\/]first-load)[\\/]index\.ts$/.test(id) },
      experimental: { lazyBarrel: true },
      output: {
        // The first load's chunk plan: named chunks grouped by when they are needed (build/chunk-plan.ts).
        codeSplitting: { groups: chunkGroups(repoRoot) },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'build/**/*.test.ts'],
    css: false,
    restoreMocks: true,
    // Whole-app renders with Mantine in jsdom take a few hundred ms each; a 2-core CI box under
    // load needs more than the 5 s default for the tests that render the app several times.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // As Playwright does in CI: a test that fails twice fails the run; one that passes on its retry
    // is a timing race of jsdom on a loaded 2-core box (such as a toast that came before the
    // list's re-render), reported, to be fixed — not a reason to block a landing.
    retry: process.env.CI ? 1 : 0,
  },
});
