import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brandMarkClasses } from '@/components/brandMarkClasses';
import { layoutClasses } from '@/features/layout/layoutClasses';
import { dashboardSkeletonClasses } from '@/features/progress/dashboardSkeletonClasses';

const src = path.resolve(import.meta.dirname, '..');

/** The class names a stylesheet defines (its selectors' `.name`s). */
function classesOf(file: string): Set<string> {
  const css = fs.readFileSync(path.join(src, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  return new Set([...css.matchAll(/(?<![\w-])\.([a-zA-Z][\w-]*)/g)].map((m) => m[1]!));
}

describe('the first screens’ global stylesheets and their class-name maps', () => {
  it.each([
    ['components/BrandMark.css', brandMarkClasses],
    ['features/layout/layout.css', layoutClasses],
    ['features/progress/DashboardSkeleton.css', dashboardSkeletonClasses],
  ])('%s defines every class its map names, and no other', (file, map) => {
    expect([...classesOf(file)].sort()).toEqual(Object.values(map).sort());
  });

  it('main.tsx links them through styles/first-screens.ts', () => {
    const imports = fs.readFileSync(path.join(src, 'styles/first-screens.ts'), 'utf8');
    for (const file of ['components/BrandMark.css', 'features/layout/layout.css', 'features/progress/DashboardSkeleton.css']) expect(imports).toContain(`'@/${file}'`);
    expect(fs.readFileSync(path.join(src, 'main.tsx'), 'utf8')).toContain("import './styles/first-screens';");
  });
});
