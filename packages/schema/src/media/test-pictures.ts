/**
 * Real, tiny pictures made byte by byte for tests (`@chronicler/schema/media/testing`): a PNG of any
 * size and colour (stored deflate blocks, no compressor needed), an 8×8 baseline JPEG, 1×1 WebPs
 * (lossy, lossless, and extended with alpha) and a 1×1 GIF, each with optional metadata, and the
 * hostile files the inspector must refuse. No I/O, no Node modules: the browser's tests can use it too.
 */

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const be32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
const be16 = (n: number) => Uint8Array.of((n >>> 8) & 0xff, n & 0xff);
const le32 = (n: number) => Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream of stored (uncompressed) deflate blocks. */
function zlibStored(data: Uint8Array): Uint8Array {
  const blocks: Uint8Array[] = [Uint8Array.of(0x78, 0x01)];
  for (let at = 0; at < data.length || at === 0; at += 65535) {
    const part = data.subarray(at, at + 65535);
    const final = at + 65535 >= data.length ? 1 : 0;
    blocks.push(Uint8Array.of(final, part.length & 0xff, part.length >>> 8, ~part.length & 0xff, (~part.length >>> 8) & 0xff), part);
    if (data.length === 0) break;
  }
  blocks.push(be32(adler32(data)));
  return concatBytes(...blocks);
}

export function pngChunk(type: string, data: Uint8Array = new Uint8Array()): Uint8Array {
  const body = concatBytes(ascii(type), data);
  return concatBytes(be32(data.length), body, be32(crc32(body)));
}

export interface PngOptions {
  width?: number;
  height?: number;
  rgb?: [number, number, number];
  /** Chunks put between IHDR and IDAT (a tEXt, an eXIf). */
  extraChunks?: Uint8Array[];
}

/** A truecolour PNG of one colour, decodable by any browser. */
export function pngBytes({ width = 2, height = 2, rgb = [51, 102, 204], extraChunks = [] }: PngOptions = {}): Uint8Array {
  const row = new Uint8Array(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set(rgb, 1 + x * 3);
  const raw = new Uint8Array(row.length * height);
  for (let y = 0; y < height; y += 1) raw.set(row, y * row.length);
  const header = concatBytes(be32(width), be32(height), Uint8Array.of(8, 2, 0, 0, 0));
  return concatBytes(
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', header),
    ...extraChunks,
    pngChunk('IDAT', zlibStored(raw)),
    pngChunk('IEND'),
  );
}

/** A PNG whose header claims `width` × `height` but whose data is a few bytes: a decompression bomb's shape. */
export function pngClaiming(width: number, height: number): Uint8Array {
  const header = concatBytes(be32(width), be32(height), Uint8Array.of(8, 2, 0, 0, 0));
  return concatBytes(
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlibStored(new Uint8Array(16))),
    pngChunk('IEND'),
  );
}

export const pngText = (keyword: string, text: string) => pngChunk('tEXt', concatBytes(ascii(keyword), Uint8Array.of(0), ascii(text)));

// ---------------------------------------------------------------------------------------------
// JPEG: an 8×8 grey baseline picture: one component, one Huffman code each for DC 0 and EOB.

const jpegSegment = (marker: number, data: Uint8Array) => concatBytes(Uint8Array.of(0xff, marker), be16(data.length + 2), data);

/** The GPS position a camera writes (52°N), in an EXIF APP1 segment: what must never reach the server. */
export const GPS_MARKER = 'GPS 52N 13E';

/** An APP1 EXIF segment with a GPS IFD (latitude reference 'N' and a made-up note carrying GPS_MARKER). */
export function exifGpsSegment(): Uint8Array {
  // TIFF, big-endian: IFD0 with one entry (GPSInfo → the GPS IFD), the GPS IFD with two entries.
  const note = ascii(`${GPS_MARKER}\0`);
  const gpsIfdOffset = 8 + 2 + 12 + 4;
  const noteOffset = gpsIfdOffset + 2 + 12 * 2 + 4;
  const tiff = concatBytes(
    ascii('MM'), be16(42), be32(8),
    be16(1), be16(0x8825), be16(4), be32(1), be32(gpsIfdOffset), be32(0),
    be16(2),
    be16(0x0001), be16(2), be32(2), Uint8Array.of(0x4e, 0, 0, 0), // GPSLatitudeRef "N"
    be16(0x001b), be16(7), be32(note.length), be32(noteOffset), // GPSProcessingMethod
    be32(0),
    note,
  );
  return jpegSegment(0xe1, concatBytes(ascii('Exif\0\0'), tiff));
}

export const jpegComment = (text: string) => jpegSegment(0xfe, ascii(text));

export interface JpegOptions {
  /** Segments put after JFIF (an EXIF APP1, a comment). */
  extraSegments?: Uint8Array[];
  width?: number;
  height?: number;
}

export function jpegBytes({ extraSegments = [], width = 8, height = 8 }: JpegOptions = {}): Uint8Array {
  const jfif = jpegSegment(0xe0, concatBytes(ascii('JFIF\0'), Uint8Array.of(1, 1, 0), be16(1), be16(1), Uint8Array.of(0, 0)));
  const dqt = jpegSegment(0xdb, concatBytes(Uint8Array.of(0), new Uint8Array(64).fill(1)));
  const sof = jpegSegment(0xc0, concatBytes(Uint8Array.of(8), be16(height), be16(width), Uint8Array.of(1, 1, 0x11, 0)));
  const oneCode = (tableClass: number) => concatBytes(Uint8Array.of((tableClass << 4) | 0), Uint8Array.of(1), new Uint8Array(15), Uint8Array.of(0));
  const dht = concatBytes(jpegSegment(0xc4, oneCode(0)), jpegSegment(0xc4, oneCode(1)));
  const sos = jpegSegment(0xda, Uint8Array.of(1, 1, 0x00, 0, 63, 0));
  // Per 8×8 block: DC code '0' (no difference), AC code '0' (end of block): two bits each block.
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = '00'.repeat(blocks);
  const padded = bits.padEnd(Math.ceil(bits.length / 8) * 8, '1');
  const scan = Uint8Array.from(padded.match(/.{8}/g)!, (byte) => parseInt(byte, 2));
  return concatBytes(Uint8Array.of(0xff, 0xd8), jfif, ...extraSegments, dqt, sof, dht, sos, scan, Uint8Array.of(0xff, 0xd9));
}

// ---------------------------------------------------------------------------------------------
// WebP and GIF: 1×1 pictures (the WebP ones are the feature-detection images browsers decode).

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export const WEBP_LOSSY = fromBase64('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA');
export const WEBP_LOSSLESS = fromBase64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==');
export const WEBP_ALPHA = fromBase64('UklGRkoAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAwAAAARBxAR/Q9ERP8DAABWUDggGAAAABQBAJ0BKgEAAQAAAP4AAA3AAP7mtQAAAA==');

function riffChunk(type: string, data: Uint8Array): Uint8Array {
  return concatBytes(ascii(type), le32(data.length), data, data.length & 1 ? Uint8Array.of(0) : new Uint8Array());
}

/** The extended (VP8X) WebP with EXIF and XMP chunks appended and announced in its flags. */
export function webpWithMetadata(): Uint8Array {
  const body = concatBytes(WEBP_ALPHA.subarray(12), riffChunk('EXIF', exifGpsSegment().subarray(10)), riffChunk('XMP ', ascii('<x:xmpmeta>GPS</x:xmpmeta>')));
  const out = concatBytes(ascii('RIFF'), le32(4 + body.length), ascii('WEBP'), body);
  out[20] = out[20]! | 0x0c;
  return out;
}

const GIF_HEAD = fromBase64('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==');

/** A 1×1 GIF; with `comment`, a comment extension before its image. */
export function gifBytes(comment?: string): Uint8Array {
  if (comment === undefined) return GIF_HEAD;
  const text = ascii(comment);
  const blocks: number[] = [0x21, 0xfe];
  for (let at = 0; at < text.length; at += 255) {
    const part = text.subarray(at, at + 255);
    blocks.push(part.length, ...part);
  }
  blocks.push(0);
  // After the header and global colour table (13 + 6 bytes).
  return concatBytes(GIF_HEAD.subarray(0, 19), Uint8Array.from(blocks), GIF_HEAD.subarray(19));
}

// ---------------------------------------------------------------------------------------------
// Hostile files.

export const HTML_FILE = ascii('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
export const SVG_FILE = ascii('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');
/** A GIF that is also an HTML page: the markup rides in a comment extension. */
export const GIF_HTML_POLYGLOT = gifBytes('<html><script>alert(document.domain)</script></html>');
