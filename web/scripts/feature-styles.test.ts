/**
 * Every Mantine component a screen draws has its stylesheet loaded. The app loads Mantine's CSS per
 * component (src/styles/mantine.ts for the shell; each feature's `styles.ts` for the rest): a
 * component whose CSS nobody imports draws as bare HTML — the series screen's List/Outline switch
 * showed two browser radio buttons, the export screen's radios and checkboxes put their labels
 * under them. This reads the imports: for each feature folder (and the shared folders), every
 * component imported from '@mantine/core' needs its own `.layer.css` (and the CSS of the parts it
 * is built from, DEPENDS_ON) imported by that folder or loaded on every signed-in screen: the
 * shell's (src/styles/mantine.ts) and the signed-in chunk's (build/chunk-plan.ts, its listed files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHUNK_PLAN } from '../build/chunk-plan';

const SRC = path.resolve(import.meta.dirname, '../src');
const ROOT = path.resolve(import.meta.dirname, '../..');
const MANTINE_STYLES = path.resolve(import.meta.dirname, '../node_modules/@mantine/core/styles');

/** Parts a component is drawn with whose CSS is a file of its own (Mantine's utils and base inputs). */
const DEPENDS_ON: Record<string, string[]> = {
  Checkbox: ['InlineInput'],
  Radio: ['InlineInput'],
  Switch: ['InlineInput'],
  Chip: ['InlineInput'],
  TextInput: ['Input'],
  Textarea: ['Input'],
  PasswordInput: ['Input'],
  NumberInput: ['Input'],
  NativeSelect: ['Input'],
  InputBase: ['Input'],
  FileInput: ['Input'],
  ColorInput: ['Input'],
  Select: ['Input', 'Combobox'],
  Autocomplete: ['Input', 'Combobox'],
  MultiSelect: ['Input', 'Combobox', 'Pill', 'PillsInput'],
  TagsInput: ['Input', 'Combobox', 'Pill', 'PillsInput'],
  Modal: ['ModalBase'],
  Drawer: ['ModalBase'],
};

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.(ts|tsx)$/.test(entry.name) && !entry.name.startsWith('test-utils') ? [full] : [];
  });
}

const stylesheet = (name: string) => fs.existsSync(path.join(MANTINE_STYLES, `${name}.layer.css`));
const importedStyles = (text: string) => [...text.matchAll(/@mantine\/core\/styles\/([A-Za-z]+)\.layer\.css/g)].map((m) => m[1]!);
const mantineComponents = (text: string) =>
  [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type ') && /^[A-Z]/.test(name)),
  );

/** The folders whose modules load together: each feature, and the shared folders. */
function groups(): { name: string; files: string[] }[] {
  const features = fs.readdirSync(path.join(SRC, 'features')).map((f) => ({ name: `features/${f}`, files: filesUnder(path.join(SRC, 'features', f)) }));
  const shared = ['components', 'lib', 'app'].filter((d) => fs.existsSync(path.join(SRC, d))).map((d) => ({ name: d, files: filesUnder(path.join(SRC, d)) }));
  return [...features, ...shared];
}

describe('Mantine stylesheets', () => {
  it('are loaded for every component a folder draws', () => {
    const signedIn = CHUNK_PLAN.find((group) => group.name === 'signed-in')?.files ?? [];
    const everywhere = [path.join(SRC, 'styles/mantine.ts'), ...signedIn.filter((file) => /\.tsx?$/.test(file)).map((file) => path.join(ROOT, file))];
    const shell = new Set(everywhere.flatMap((file) => importedStyles(fs.readFileSync(file, 'utf8'))));
    expect(shell.has('Skeleton'), 'the signed-in chunk still loads the skeletons').toBe(true);
    const missing: string[] = [];
    for (const group of groups()) {
      const texts = group.files.map((file) => fs.readFileSync(file, 'utf8'));
      const loaded = new Set([...shell, ...texts.flatMap(importedStyles)]);
      const used = new Set(texts.flatMap(mantineComponents));
      for (const component of used) {
        for (const css of [component, ...(DEPENDS_ON[component] ?? [])]) {
          if (stylesheet(css) && !loaded.has(css)) missing.push(`${group.name}: ${component} needs @mantine/core/styles/${css}.layer.css`);
        }
      }
    }
    expect([...new Set(missing)].sort()).toEqual([]);
  });

  it('reads the imports it checks (a planted folder without its CSS fails)', () => {
    const texts = ["import { Radio, Group } from '@mantine/core';"];
    const used = texts.flatMap(mantineComponents);
    expect(used).toEqual(['Radio', 'Group']);
    expect(importedStyles("import '@mantine/core/styles/Radio.layer.css';")).toEqual(['Radio']);
    expect(stylesheet('Radio') && stylesheet('InlineInput') && !stylesheet('NotAComponent')).toBe(true);
  });
});
