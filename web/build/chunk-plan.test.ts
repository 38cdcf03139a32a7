/**
 * The chunk plan (build/chunk-plan.ts) names real modules: a path that no longer exists (a module
 * moved or renamed, an icon dropped, a package reorganised by an upgrade) would silently leave its
 * group, and its module would become a chunk of its own — one more request on a first route.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHUNK_PLAN, inGroup } from './chunk-plan.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Where pnpm puts a dependency: web's own, else the store's hoisted folder (a dependency's dependency). */
const DEPENDENCY_ROOTS = [path.join(ROOT, 'web/node_modules'), path.join(ROOT, 'node_modules/.pnpm/node_modules')];

const dependencyExists = (dep: string) => DEPENDENCY_ROOTS.some((root) => fs.existsSync(path.join(root, dep)));

describe('the chunk plan', () => {
  it('lists only files and folders that exist', () => {
    const missing = CHUNK_PLAN.flatMap((group) => [
      ...(group.files ?? []).filter((file) => !fs.existsSync(path.join(ROOT, file))).map((file) => `${group.name}: ${file}`),
      ...(group.dependencies ?? []).filter((dep) => !dependencyExists(dep)).map((dep) => `${group.name}: node_modules/${dep}`),
    ]);
    expect(missing).toEqual([]);
  });

  it('has one group per name and lists no path twice', () => {
    const names = CHUNK_PLAN.map((group) => group.name);
    expect(new Set(names).size).toBe(names.length);
    const paths = CHUNK_PLAN.flatMap((group) => [...(group.files ?? []), ...(group.dependencies ?? [])]);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  });

  it('matches a file exactly, a folder by prefix, a dependency wherever pnpm stores it', () => {
    const group = { name: 'g', files: ['web/src/a.ts', 'packages/x/'], dependencies: ['dexie/', '@tabler/icons-react/dist/esm/icons/IconX.mjs'] };
    expect(inGroup(group, '/repo/web/src/a.ts', '/repo')).toBe(true);
    expect(inGroup(group, '/repo/web/src/a.tsx', '/repo')).toBe(false);
    expect(inGroup(group, '/repo/packages/x/src/b.ts', '/repo/')).toBe(true);
    expect(inGroup(group, '/repo/node_modules/.pnpm/dexie@4.4.7/node_modules/dexie/dist/dexie.mjs', '/repo')).toBe(true);
    expect(inGroup(group, '/repo/node_modules/.pnpm/dexie-react-hooks@4/node_modules/dexie-react-hooks/dist/x.mjs', '/repo')).toBe(false);
    expect(inGroup(group, 'C:\\repo\\node_modules\\@tabler\\icons-react\\dist\\esm\\icons\\IconX.mjs', 'C:\\repo')).toBe(true);
    expect(inGroup(group, '/repo/node_modules/@tabler/icons-react/dist/esm/icons/IconXY.mjs', '/repo')).toBe(false);
  });
});
