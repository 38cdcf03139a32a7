#!/usr/bin/env node
/**
 * `node scripts/chunk-cycles.mjs [dist]` — fails when two built chunks import each other (directly
 * or around a loop). Chunk groups in vite.config.ts can create such loops; the modules inside are
 * then evaluated in an order that depends on which chunk the browser asked for first (toasts went
 * missing now and then when the toast stack and the update prompt shared a group with their deps).
 */
import fs from 'node:fs';
import path from 'node:path';

const dist = process.argv[2] ?? 'dist';
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const imports = new Map(Object.values(manifest).map((chunk) => [chunk.file, (chunk.imports ?? []).map((key) => manifest[key].file)]));
const cycles = [];
const state = new Map(); // 1 visiting, 2 done
function visit(file, trail) {
  if (state.get(file) === 2) return;
  if (state.get(file) === 1) {
    cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
    return;
  }
  state.set(file, 1);
  for (const next of imports.get(file) ?? []) visit(next, [...trail, file]);
  state.set(file, 2);
}
for (const file of imports.keys()) visit(file, []);
if (cycles.length > 0) {
  console.error(`Chunks that import each other (vite.config.ts groups):\n  ${cycles.join('\n  ')}`);
  process.exit(1);
}
console.log(`no import cycles between ${imports.size} chunks`);
