// Generates the PWA icons in public/icons (and public/favicon.svg) with nothing but Node's zlib.
// Run: pnpm --filter @chronicler/web icons. The output is committed; this script documents it.
// Glyph: an open book with a gold ribbon on an indigo-to-violet rounded square.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const FROM = [0x3b, 0x3f, 0xc4]; // #3b3fc4
const TO = [0x7a, 0x3c, 0xd8]; // #7a3cd8
const PAGE = [0xff, 0xff, 0xff];
const LINE = [0xc9, 0xcb, 0xf2];
const RIBBON = [0xf5, 0xb9, 0x42];

// ---- geometry in a unit square ------------------------------------------------------------
function quad(p0, c, p1, steps = 24) {
  const out = [];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const a = (1 - t) * (1 - t);
    const b = 2 * (1 - t) * t;
    const d = t * t;
    out.push([a * p0[0] + b * c[0] + d * p1[0], a * p0[1] + b * c[1] + d * p1[1]]);
  }
  return out;
}
function mirror(poly) {
  return poly.map(([x, y]) => [1 - x, y]);
}
function page() {
  const top = quad([0.17, 0.32], [0.33, 0.25], [0.485, 0.35]);
  const bottom = quad([0.485, 0.76], [0.33, 0.66], [0.17, 0.73]);
  return [...top, ...bottom];
}
function pageLine(t, x0 = 0.23, x1 = 0.44, thickness = 0.022) {
  // a line following the page curve at height fraction t between top and bottom edge
  const curveY = (x) => {
    const u = (x - 0.17) / (0.485 - 0.17);
    const topY = (1 - u) * (1 - u) * 0.32 + 2 * (1 - u) * u * 0.25 + u * u * 0.35;
    const botY = (1 - u) * (1 - u) * 0.73 + 2 * (1 - u) * u * 0.66 + u * u * 0.76;
    return topY + (botY - topY) * t;
  };
  const up = [];
  const down = [];
  for (let i = 0; i <= 16; i++) {
    const x = x0 + ((x1 - x0) * i) / 16;
    up.push([x, curveY(x) - thickness / 2]);
    down.unshift([x, curveY(x) + thickness / 2]);
  }
  return [...up, ...down];
}
const leftPage = page();
const rightPage = mirror(leftPage);
const lines = [0.3, 0.45, 0.6].flatMap((t) => [pageLine(t), mirror(pageLine(t))]);
const ribbon = [
  [0.6, 0.305],
  [0.665, 0.3],
  [0.665, 0.56],
  [0.6325, 0.52],
  [0.6, 0.56],
];

function inPoly(x, y, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
function inRoundRect(x, y, r) {
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** Colour of one sample point, [r,g,b,a] with a in 0..1. */
function sample(x, y, { radius, scale }) {
  if (radius > 0 && !inRoundRect(x, y, radius)) return [0, 0, 0, 0];
  const t = Math.min(1, Math.max(0, (x + y) / 2));
  let c = FROM.map((f, i) => f + (TO[i] - f) * t);
  // glyph coordinates, scaled around the centre
  const gx = 0.5 + (x - 0.5) / scale;
  const gy = 0.5 + (y - 0.5) / scale + 0.01;
  if (inPoly(gx, gy, leftPage) || inPoly(gx, gy, rightPage)) c = PAGE;
  if (lines.some((l) => inPoly(gx, gy, l))) c = LINE;
  if (inPoly(gx, gy, ribbon)) c = RIBBON;
  return [...c, 1];
}

function render(size, opts) {
  const ss = 4;
  const buf = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const [cr, cg, cb, ca] = sample((px + (sx + 0.5) / ss) / size, (py + (sy + 0.5) / ss) / size, opts);
          r += cr * ca; g += cg * ca; b += cb * ca; a += ca;
        }
      }
      const o = (py * size + px) * 4;
      const n = ss * ss;
      buf[o] = a ? Math.round(r / a) : 0;
      buf[o + 1] = a ? Math.round(g / a) : 0;
      buf[o + 2] = a ? Math.round(b / a) : 0;
      buf[o + 3] = Math.round((a / n) * 255);
    }
  }
  return buf;
}

// ---- PNG encoding ---------------------------------------------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function write(rel, data) {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
  console.log('wrote', rel, data.length, 'bytes');
}

const rounded = { radius: 0.22, scale: 1 };
write('icons/icon-192.png', png(192, render(192, rounded)));
write('icons/icon-512.png', png(512, render(512, rounded)));
// Maskable: full-bleed background, glyph inside the 80% safe zone.
write('icons/maskable-512.png', png(512, render(512, { radius: 0, scale: 0.78 })));
// iOS draws its own corners; give it a full square.
write('icons/apple-touch-icon-180.png', png(180, render(180, { radius: 0, scale: 0.9 })));
write('icons/favicon-32.png', png(32, render(32, { radius: 0.2, scale: 1.08 })));

// ---- SVG favicon with the same geometry -------------------------------------------------------
const pts = (poly) => poly.map(([x, y]) => `${(x * 64).toFixed(2)},${((y + 0.01) * 64).toFixed(2)}`).join(' ');
const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hex(FROM)}"/><stop offset="1" stop-color="${hex(TO)}"/></linearGradient></defs>
<rect width="64" height="64" rx="14" fill="url(#g)"/>
<polygon points="${pts(leftPage)}" fill="${hex(PAGE)}"/>
<polygon points="${pts(rightPage)}" fill="${hex(PAGE)}"/>
${lines.map((l) => `<polygon points="${pts(l)}" fill="${hex(LINE)}"/>`).join('\n')}
<polygon points="${pts(ribbon)}" fill="${hex(RIBBON)}"/>
</svg>
`;
write('favicon.svg', svg);

// The in-app mark: the same book on a transparent ground; BrandMark paints the theme's gradient under it.
// Coordinates to a tenth of a unit (a 64-unit box drawn at ~34 px): it is part of the first
// screens' stylesheet, a fifth smaller so.
const book = svg
  .replace(/<defs>.*<\/defs>\n/, '')
  .replace(/<rect [^>]*\/>\n/, '')
  .replace(/\d+\.\d+/g, (n) => String(Number(Number(n).toFixed(1))));
// Beside the code, not in public/: BrandMark's stylesheet has it inlined (a data URL), so the mark
// costs no request of its own on the first load (docs/web.md#first-load).
writeFileSync(join(root, '..', 'src', 'assets', 'brand-book.svg'), book);
console.log('wrote src/assets/brand-book.svg', book.length, 'bytes');
