/**
 * Where the server's tests live (test/README.md): in test/, in the folder named like the src/
 * folder they test (test/sync/ for src/sync/), or at test/'s root for the root files (app.ts,
 * main.ts, cli.ts); helpers only in test/support/. vitest runs test/**\/*.test.ts only, so a test
 * put beside the code would never run: this fails instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '..');
const SRC = path.join(SERVER, 'src');
const TEST = path.join(SERVER, 'test');

/** Every file under `dir`, as paths relative to `dir`. */
const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));

describe('the test layout', () => {
  it('has no test beside the code', () => {
    expect(filesUnder(SRC).filter((file) => /\.test\.ts$/.test(file))).toEqual([]);
  });

  it('mirrors src/: each test folder is a src/ folder, and only support/ holds helpers', () => {
    const misplaced = filesUnder(TEST).filter((file) => {
      const folder = path.dirname(file);
      if (folder === 'support' || folder.startsWith(`support${path.sep}`)) return false;
      if (file === 'README.md') return false;
      return !file.endsWith('.test.ts') || (folder !== '.' && !fs.existsSync(path.join(SRC, folder)));
    });
    expect(misplaced).toEqual([]);
  });
});
