/**
 * Vite plugin: a tiny inline script in index.html that starts downloading the current route's lazy
 * screen (and everything it imports) while the entry is still loading, instead of after the entry
 * has run and the router asked for it — one network round trip less before the first screen paints
 * (docs/web.md#first-load). The routes and their lazy modules are those of the first-route size
 * check (first-route-budget.json), so both always agree. `/` preloads the signed-in shell only for
 * a visitor who may be signed in (the hint cookie or a remembered user, as lib/session.ts decides);
 * anyone else is sent to /auth, whose screen it preloads instead.
 *
 * The screen's stylesheets are linked too, render-blocking (`blocking="render"`), as a parser-inserted
 * one would be: otherwise Vite's loader requested them only once the entry had run and imported the
 * screen — one more round trip before the first paint. The loader finds them linked and does not add
 * them again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

interface BudgetFile {
  routes: Record<string, { lazyModules: string[] }>;
}

interface OutputChunkLike {
  type: 'chunk' | 'asset';
  fileName: string;
  facadeModuleId?: string | null;
  moduleIds?: string[];
  imports?: string[];
  viteMetadata?: { importedCss?: Set<string> };
}

export function routePreload(budgetFile: string, root: string): Plugin {
  return {
    name: 'chronicler-route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle as Record<string, OutputChunkLike> | undefined;
        if (!bundle) return [];
        const { routes } = JSON.parse(fs.readFileSync(budgetFile, 'utf8')) as BudgetFile;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const entryFiles = new Set<string>();
        const walk = (fileName: string, into: Set<string>) => {
          if (into.has(fileName)) return;
          into.add(fileName);
          for (const imported of bundle[fileName]?.imports ?? []) walk(imported, into);
        };
        // What index.html loads already needs no second hint.
        for (const chunk of chunks) if ((chunk as { isEntry?: boolean }).isEntry) walk(chunk.fileName, entryFiles);
        const entryCss = new Set<string>();
        for (const file of entryFiles) for (const css of bundle[file]?.viteMetadata?.importedCss ?? []) entryCss.add(css);
        const files: Record<string, string[]> = {};
        for (const [route, { lazyModules }] of Object.entries(routes)) {
          const wanted = new Set<string>();
          for (const module of lazyModules) {
            const id = path.join(root, module);
            // Its own chunk, or the group's it was placed in (vite.config.ts codeSplitting.groups).
            const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds?.includes(id));
            if (!chunk) throw new Error(`route-preload: ${module} (${route}) is not a chunk of this build`);
            walk(chunk.fileName, wanted);
          }
          const scripts = [...wanted].filter((file) => !entryFiles.has(file) && file.endsWith('.js'));
          const styles = new Set<string>();
          for (const file of scripts) for (const css of bundle[file]?.viteMetadata?.importedCss ?? []) if (!entryCss.has(css)) styles.add(css);
          files[route] = [...scripts, ...styles];
        }
        const script = `(function(){var f=${JSON.stringify(files)},p=location.pathname,s=false;try{s=/(^|; )chronicler_signed_in=/.test(document.cookie)||!!localStorage.getItem('chronicler:last-user')}catch(e){}var l=f[p==='/'&&!s?'/auth':p];if(l)l.forEach(function(h){var e=document.createElement('link'),c=/\\.css$/.test(h);e.rel=c?'stylesheet':'modulepreload';if(c)e.setAttribute('blocking','render');else e.crossOrigin='';e.href='/'+h;document.head.appendChild(e)})})();`;
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}
