import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ACCEPTED_IMAGE_TYPES,
  MAX_IMAGE_EDGE,
  MAX_IMAGE_PIXELS,
  formatPictureRef,
  headerImageSize,
  parsePictureRef,
  sniffImageType,
  withinImageLimits,
} from './picture-format.ts';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];

const pngHeader = (w: number, h: number) => bytes([0x89], 'PNG\r\n\x1a\n', be32(13), 'IHDR', be32(w), be32(h), [8, 6, 0, 0, 0]);
const gifHeader = (w: number, h: number) => bytes('GIF89a', le16(w), le16(h), [0, 0, 0]);
const webpExtended = (w: number, h: number) => bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8X', [10, 0, 0, 0], [0, 0, 0, 0], le24(w - 1), le24(h - 1));
/** A JPEG with an APP1 (EXIF) block before its frame header, as cameras write them. */
const jpegHeader = (w: number, h: number) =>
  bytes([0xff, 0xd8], [0xff, 0xe1, 0x00, 0x08], 'Exif\0\0', [0xff, 0xc0, 0x00, 0x11, 8], [(h >> 8) & 255, h & 255, (w >> 8) & 255, w & 255], [3, 1, 0x22, 0]);

describe('sniffImageType: the bytes decide, never the name', () => {
  it('knows JPEG, PNG, GIF and WebP by their magic numbers', () => {
    expect(sniffImageType(jpegHeader(10, 10))).toBe('image/jpeg');
    expect(sniffImageType(pngHeader(10, 10))).toBe('image/png');
    expect(sniffImageType(gifHeader(10, 10))).toBe('image/gif');
    expect(sniffImageType(webpExtended(10, 10))).toBe('image/webp');
  });

  it('refuses HTML, SVG and a RIFF that is not WebP, whatever they are called', () => {
    expect(sniffImageType(bytes('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WAVE'))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
    expect(sniffImageType(bytes([0xff, 0xd8]))).toBeNull();
  });
});

describe('headerImageSize: the size before decoding', () => {
  it('reads each format’s header', () => {
    expect(headerImageSize(pngHeader(640, 480), 'image/png')).toEqual({ width: 640, height: 480 });
    expect(headerImageSize(gifHeader(320, 200), 'image/gif')).toEqual({ width: 320, height: 200 });
    expect(headerImageSize(webpExtended(4000, 3000), 'image/webp')).toEqual({ width: 4000, height: 3000 });
    expect(headerImageSize(jpegHeader(4032, 3024), 'image/jpeg')).toEqual({ width: 4032, height: 3024 });
  });

  it('tells a decompression bomb before it is decoded', () => {
    const bomb = headerImageSize(pngHeader(50_000, 50_000), 'image/png')!;
    expect(withinImageLimits(bomb)).toBe(false);
    expect(withinImageLimits({ width: MAX_IMAGE_EDGE, height: 4000 })).toBe(true);
    expect(withinImageLimits({ width: MAX_IMAGE_EDGE + 1, height: 10 })).toBe(false);
    // Within each edge but over 40 megapixels.
    expect(withinImageLimits({ width: 8000, height: 6000 })).toBe(false);
    expect(withinImageLimits({ width: 0, height: 10 })).toBe(false);
  });

  it('answers null for a truncated header', () => {
    expect(headerImageSize(pngHeader(1, 1).slice(0, 20), 'image/png')).toBeNull();
    expect(headerImageSize(bytes([0xff, 0xd8, 0xff, 0xda, 0, 0, 0, 0, 0, 0, 0, 0]), 'image/jpeg')).toBeNull();
  });
});

describe('picture references', () => {
  const hex = fc.stringMatching(/^[0-9a-f]{64}$/);

  it('round-trips every pair of digests', () => {
    fc.assert(
      fc.property(hex, hex, (display, thumb) => {
        expect(parsePictureRef(formatPictureRef({ display, thumb }))).toEqual({ display, thumb });
      }),
    );
  });

  it('reads a URL, an empty field or a malformed reference as no picture', () => {
    const d = 'a'.repeat(64);
    expect(parsePictureRef('https://example.com/cover.jpg')).toBeNull();
    expect(parsePictureRef(null)).toBeNull();
    expect(parsePictureRef('')).toBeNull();
    expect(parsePictureRef(`media:${d.toUpperCase()}#thumb=${d}`)).toBeNull();
    expect(parsePictureRef(`media:${d}`)).toBeNull();
    expect(parsePictureRef(`media:${d}#thumb=${d} `)).toBeNull();
    expect(() => formatPictureRef({ display: 'x', thumb: d })).toThrow();
  });
});

describe('the same rules as the server (@chronicler/schema/media)', () => {
  it('agrees on the types, the limits and the reference', async () => {
    const shared = await import('@chronicler/schema/media');
    expect([...ACCEPTED_IMAGE_TYPES]).toEqual([...shared.ACCEPTED_IMAGE_TYPES]);
    expect([MAX_IMAGE_EDGE, MAX_IMAGE_PIXELS]).toEqual([shared.MAX_PICTURE_SIDE, shared.MAX_PICTURE_PIXELS]);
    const d = 'a'.repeat(64);
    const t = 'b'.repeat(64);
    expect(shared.parseMediaReference(formatPictureRef({ display: d, thumb: t }))).toEqual({ display: d, thumb: t });
    for (const bytes of [new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), new TextEncoder().encode('GIF89a....'), new TextEncoder().encode('<svg></svg>')]) {
      expect(sniffImageType(bytes)).toBe(shared.sniffImageType(bytes));
    }
  });
});

