/**
 * Vite plugin: Vite's build manifest names a lazily imported module only when it has a chunk of
 * its own. A lazy module placed in a group's chunk (vite.config.ts codeSplitting.groups — the
 * signed-in outline in `shell`) had no entry, and what reads the manifest by module (the
 * first-route size check, e2e/tests/first-load.spec.ts) could not find its file. This adds one per
 * such module: the group chunk's entry, as a dynamic entry with the module as its source.
 */
import path from 'node:path';
import type { Plugin } from 'vite';

interface ManifestChunk {
  file: string;
  src?: string;
  isDynamicEntry?: boolean;
  [key: string]: unknown;
}

export function manifestGroupedEntries(root: string): Plugin {
  return {
    name: 'chronicler-manifest-grouped-entries',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const asset = bundle['.vite/manifest.json'];
        if (!asset || asset.type !== 'asset') return;
        const manifest = JSON.parse(String(asset.source)) as Record<string, ManifestChunk>;
        const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || chunk.facadeModuleId) continue;
          const key = byFile.get(chunk.fileName);
          if (!key) continue;
          for (const id of chunk.moduleIds) {
            const lazy = (this.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0;
            if (!lazy || !id.startsWith(root)) continue;
            const src = path.relative(root, id).split(path.sep).join('/');
            if (!manifest[src]) manifest[src] = { ...manifest[key]!, src, isDynamicEntry: true };
          }
        }
        asset.source = `${JSON.stringify(manifest, null, 2)}\n`;
      },
    },
  };
}
