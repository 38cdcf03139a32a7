/**
 * A feature's index.ts only re-exports. When a route takes a screen through the index, the build
 * follows the re-export straight to the screen's module and bundles none of the index's own
 * imports: CSS imported there was never loaded (the collaboration screen's inputs,
 * tabs and invite dialog drew unstyled — the dialog grew past the viewport — once nothing else
 * had happened to load the same Mantine CSS first). Each feature imports its CSS in `styles.ts`,
 * imported by the screen modules themselves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = path.resolve(import.meta.dirname, '../src/features');

describe('feature indexes', () => {
  it('have no side-effect imports (CSS and the like belong in the modules that need them)', () => {
    const offenders: string[] = [];
    for (const feature of fs.readdirSync(FEATURES)) {
      const index = path.join(FEATURES, feature, 'index.ts');
      if (!fs.existsSync(index)) continue;
      const text = fs.readFileSync(index, 'utf8');
      for (const match of text.matchAll(/^import\s+['"][^'"]+['"];?$/gm)) offenders.push(`${feature}/index.ts: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });
});
