/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, so the
 * server sends compressed files without compressing per request (sync-server/src/web/plugin.ts,
 * @fastify/static `preCompressed`). Run by `pnpm --filter @chronicler/web build` after `vite build`
 * (it must run after vite-plugin-pwa wrote sw.js). A copy that is not smaller is not written.
 *
 *   node scripts/precompress.mjs [dist]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Text formats worth compressing; images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|map|txt|xml)$/;

function* filesUnder(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** Compresses every compressible file under `dist`; returns how many copies were written. */
export function precompress(dist) {
  let written = 0;
  for (const file of filesUnder(dist)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = fs.readFileSync(file);
    const copies = [
      ['.br', zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })],
      ['.gz', zlib.gzipSync(raw, { level: 9 })],
    ];
    for (const [extension, body] of copies) {
      const target = file + extension;
      if (body.length < raw.length) {
        fs.writeFileSync(target, body);
        written += 1;
      } else fs.rmSync(target, { force: true }); // a stale copy of an older build would be served instead
    }
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  console.log(`precompress: ${precompress(dist)} brotli/gzip copies in ${dist}`);
}
