/**
 * What a picture's bytes are, read from the bytes alone, never from a name or a declared type
 * (docs/decisions/0022-pictures-on-the-server.md): the accepted types by their magic numbers, the
 * dimensions from the header (so a decompression bomb is refused without decoding a pixel), the
 * metadata parts stripping removes, and anything that makes the file more than a picture (markup
 * in its comments or chunks, bytes after its end: a polyglot). The same rule on both sides: the
 * browser checks a chosen file with it, the server every upload.
 *
 * Walks the container structure only (JPEG segments, PNG chunks, GIF blocks, RIFF chunks); pixel
 * data is skipped, never decoded. Works on a Uint8Array (browser and Node).
 */

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type ImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/** The largest side and area a picture may have: beyond them decoding alone could take gigabytes. */
export const MAX_PICTURE_SIDE = 8192;
export const MAX_PICTURE_PIXELS = 40_000_000;

/** A part of the file that stripping removes: its byte range and what it is (for messages and tests). */
export interface MetadataPart {
  start: number;
  end: number;
  name: string;
}

export type ImageProblem =
  /** Not one of the accepted types (HTML, SVG, a PDF, anything else). */
  | 'not-an-image'
  /** Starts like an accepted type but its structure is broken or cut short. */
  | 'damaged'
  /** A picture that is also something else: markup inside it, or bytes after its end. */
  | 'polyglot'
  /** Wider or taller than MAX_PICTURE_SIDE, or more than MAX_PICTURE_PIXELS. */
  | 'too-many-pixels';

export type ImageInspection =
  | { ok: true; type: ImageType; width: number; height: number; metadata: MetadataPart[] }
  | { ok: false; problem: ImageProblem; type: ImageType | null; width?: number; height?: number };

const startsWith = (bytes: Uint8Array, at: number, ascii: string): boolean => {
  if (at + ascii.length > bytes.length) return false;
  for (let i = 0; i < ascii.length; i += 1) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The accepted type the bytes begin with (magic numbers), or null. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  if (startsWith(bytes, 0, 'GIF87a') || startsWith(bytes, 0, 'GIF89a')) return 'image/gif';
  if (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) return 'image/webp';
  return null;
}

/** What a walk of the container found. */
interface Structure {
  width: number;
  height: number;
  /** Parts stripping removes. */
  metadata: MetadataPart[];
  /** Parts that are not pixels (headers, comments, chunks): searched for markup. */
  text: Array<[number, number]>;
  /** Where the picture ends; bytes after it make it a polyglot. */
  end: number;
  /** Frame sizes beyond the canvas (GIF image descriptors), checked against the limits too. */
  frames: Array<[number, number]>;
}

class Damaged extends Error {}
const damaged = (): never => {
  throw new Damaged('damaged');
};

function be16(b: Uint8Array, at: number): number {
  if (at + 2 > b.length) damaged();
  return (b[at]! << 8) | b[at + 1]!;
}
function be32(b: Uint8Array, at: number): number {
  if (at + 4 > b.length) damaged();
  return ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
}
function le16(b: Uint8Array, at: number): number {
  if (at + 2 > b.length) damaged();
  return b[at]! | (b[at + 1]! << 8);
}
function le24(b: Uint8Array, at: number): number {
  if (at + 3 > b.length) damaged();
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
}
function le32(b: Uint8Array, at: number): number {
  if (at + 4 > b.length) damaged();
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// JPEG: segments up to the first scan, entropy-coded data skipped to its next marker, to EOI.

/** SOFn markers carry the frame's size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames. */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** APPn segments decoding needs: JFIF (APP0), the colour profile (APP2 ICC_PROFILE), Adobe's colour transform (APP14). */
function keptAppSegment(marker: number, b: Uint8Array, data: number): boolean {
  if (marker === 0xe0) return startsWith(b, data, 'JFIF\0');
  if (marker === 0xe2) return startsWith(b, data, 'ICC_PROFILE\0');
  if (marker === 0xee) return startsWith(b, data, 'Adobe');
  return false;
}

function jpegSegmentName(marker: number, b: Uint8Array, data: number): string {
  if (marker === 0xfe) return 'comment';
  if (marker === 0xe1 && startsWith(b, data, 'Exif\0')) return 'EXIF';
  if (marker === 0xe1 && startsWith(b, data, 'http://ns.adobe.com/xap/')) return 'XMP';
  if (marker === 0xed) return 'IPTC';
  return `APP${marker - 0xe0}`;
}

function walkJpeg(b: Uint8Array): Structure {
  const s: Structure = { width: 0, height: 0, metadata: [], text: [], end: 0, frames: [] };
  let pos = 2;
  for (;;) {
    if (pos >= b.length) damaged();
    if (b[pos] !== 0xff) damaged();
    while (b[pos] === 0xff) pos += 1; // fill bytes
    if (pos >= b.length) damaged();
    const marker = b[pos]!;
    const start = pos - 1;
    pos += 1;
    if (marker === 0xd9) {
      s.end = pos;
      break;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd8 || marker === 0x00) damaged();
    const length = be16(b, pos);
    if (length < 2 || pos + length > b.length) damaged();
    const data = pos + 2;
    const segmentEnd = pos + length;
    if (isStartOfFrame(marker)) {
      s.height = be16(b, data + 1);
      s.width = be16(b, data + 3);
    } else if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) {
      s.text.push([data, segmentEnd]);
      if (!keptAppSegment(marker, b, data)) s.metadata.push({ start, end: segmentEnd, name: jpegSegmentName(marker, b, data) });
    }
    pos = segmentEnd;
    if (marker === 0xda) {
      // Entropy-coded data: up to the next marker that is neither a stuffed 0xFF00 nor a restart.
      for (;;) {
        const next = b.indexOf(0xff, pos);
        if (next === -1 || next + 1 >= b.length) damaged();
        const following = b[next + 1]!;
        if (following === 0x00 || (following >= 0xd0 && following <= 0xd7) || following === 0xff) {
          pos = next + (following === 0xff ? 1 : 2);
          continue;
        }
        pos = next;
        break;
      }
    }
  }
  if (s.width === 0 || s.height === 0) damaged();
  return s;
}

// ---------------------------------------------------------------------------------------------
// PNG: chunks from IHDR to IEND.

const PNG_METADATA_CHUNKS = new Set(['tEXt', 'iTXt', 'zTXt', 'eXIf', 'tIME']);
const PNG_PIXEL_CHUNKS = new Set(['IDAT', 'fdAT']);

function walkPng(b: Uint8Array): Structure {
  const s: Structure = { width: 0, height: 0, metadata: [], text: [], end: 0, frames: [] };
  let pos = 8;
  let first = true;
  for (;;) {
    const length = be32(b, pos);
    const type = String.fromCharCode(b[pos + 4] ?? 0, b[pos + 5] ?? 0, b[pos + 6] ?? 0, b[pos + 7] ?? 0);
    const data = pos + 8;
    const chunkEnd = data + length + 4; // and its CRC
    if (chunkEnd > b.length) damaged();
    if (first) {
      if (type !== 'IHDR' || length !== 13) damaged();
      s.width = be32(b, data);
      s.height = be32(b, data + 4);
      first = false;
    }
    if (PNG_METADATA_CHUNKS.has(type)) s.metadata.push({ start: pos, end: chunkEnd, name: type });
    if (!PNG_PIXEL_CHUNKS.has(type)) s.text.push([data, data + length]);
    pos = chunkEnd;
    if (type === 'IEND') break;
  }
  s.end = pos;
  if (s.width === 0 || s.height === 0) damaged();
  return s;
}

// ---------------------------------------------------------------------------------------------
// GIF: header, colour tables, then extensions and images to the trailer.

/** The end of a run of sub-blocks starting at `pos` (each a length byte and that many bytes, to a 0). */
function skipSubBlocks(b: Uint8Array, pos: number): number {
  for (;;) {
    if (pos >= b.length) damaged();
    const size = b[pos]!;
    pos += 1 + size;
    if (size === 0) return pos;
  }
}

const GIF_EXTENSION_NAMES: Record<number, string> = { 0xfe: 'comment', 0xff: 'application extension', 0x01: 'plain text' };

function walkGif(b: Uint8Array): Structure {
  const s: Structure = { width: le16(b, 6), height: le16(b, 8), metadata: [], text: [], end: 0, frames: [] };
  const packed = b[10] ?? damaged();
  let pos = 13;
  if (packed & 0x80) pos += 3 * (1 << ((packed & 0x07) + 1));
  let images = 0;
  for (;;) {
    if (pos >= b.length) damaged();
    const block = b[pos]!;
    if (block === 0x3b) {
      s.end = pos + 1;
      break;
    }
    if (block === 0x2c) {
      const width = le16(b, pos + 5);
      const height = le16(b, pos + 7);
      s.frames.push([width, height]);
      const local = b[pos + 9] ?? damaged();
      pos += 10;
      if (local & 0x80) pos += 3 * (1 << ((local & 0x07) + 1));
      pos = skipSubBlocks(b, pos + 1); // after the LZW minimum code size
      images += 1;
    } else if (block === 0x21) {
      const label = b[pos + 1] ?? damaged();
      const end = skipSubBlocks(b, pos + 2);
      s.text.push([pos + 2, end]);
      // The graphic control extension (0xF9: delay, transparency) is part of the picture.
      if (label !== 0xf9) s.metadata.push({ start: pos, end, name: GIF_EXTENSION_NAMES[label] ?? 'extension' });
      pos = end;
    } else {
      damaged();
    }
  }
  if (images === 0 || s.width === 0 || s.height === 0) damaged();
  return s;
}

// ---------------------------------------------------------------------------------------------
// WebP: RIFF chunks; the size from VP8X (extended), VP8 (lossy) or VP8L (lossless).

const WEBP_KEPT_CHUNKS = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
const WEBP_PIXEL_CHUNKS = new Set(['VP8 ', 'VP8L', 'ALPH', 'ANMF']);

function walkWebp(b: Uint8Array): Structure {
  const s: Structure = { width: 0, height: 0, metadata: [], text: [], end: 0, frames: [] };
  const riffEnd = 8 + le32(b, 4);
  if (riffEnd > b.length || riffEnd < 20) damaged();
  let pos = 12;
  let canvas: [number, number] | null = null;
  let bitstream: [number, number] | null = null;
  while (pos < riffEnd) {
    const type = String.fromCharCode(b[pos] ?? 0, b[pos + 1] ?? 0, b[pos + 2] ?? 0, b[pos + 3] ?? 0);
    const length = le32(b, pos + 4);
    const data = pos + 8;
    const chunkEnd = data + length + (length & 1);
    if (data + length > riffEnd) damaged();
    if (type === 'VP8X') {
      canvas = [le24(b, data + 4) + 1, le24(b, data + 7) + 1];
    } else if (type === 'VP8 ' && bitstream === null) {
      if (b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) damaged();
      bitstream = [le16(b, data + 6) & 0x3fff, le16(b, data + 8) & 0x3fff];
    } else if (type === 'VP8L' && bitstream === null) {
      if (b[data] !== 0x2f) damaged();
      const bits = le32(b, data + 1);
      bitstream = [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
    }
    if (!WEBP_KEPT_CHUNKS.has(type)) s.metadata.push({ start: pos, end: Math.min(chunkEnd, riffEnd), name: type.trim() });
    if (!WEBP_PIXEL_CHUNKS.has(type)) s.text.push([data, data + length]);
    pos = chunkEnd;
  }
  // The extended header's canvas when there is one (animations, alpha), else the bitstream's size.
  const size = canvas ?? bitstream ?? damaged();
  [s.width, s.height] = size;
  s.end = riffEnd;
  if (s.width === 0 || s.height === 0) damaged();
  return s;
}

// ---------------------------------------------------------------------------------------------

/** Markup a browser or an HTML parser would act on: a polyglot hides it in a comment or a chunk. */
const MARKUP = ['<script', '<html', '<!doctype', '<svg', '<?xml', '<body', '<iframe', '<object', '<embed', '<head', '<meta', '<img', '<a href'];

function lowerAscii(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

/** Whether `b[start, end)` holds any of MARKUP, letters in any case. */
export function containsMarkup(b: Uint8Array, start = 0, end = b.length): boolean {
  let at = b.indexOf(0x3c, start);
  while (at !== -1 && at < end) {
    for (const word of MARKUP) {
      if (at + word.length > end) continue;
      let i = 1;
      while (i < word.length && lowerAscii(b[at + i]!) === word.charCodeAt(i)) i += 1;
      if (i === word.length) return true;
    }
    at = b.indexOf(0x3c, at + 1);
  }
  return false;
}

const WALKERS: Record<ImageType, (b: Uint8Array) => Structure> = {
  'image/jpeg': walkJpeg,
  'image/png': walkPng,
  'image/gif': walkGif,
  'image/webp': walkWebp,
};

/** Whether a picture of this size may be decoded (the decompression-bomb guard). */
export function withinPixelLimits(width: number, height: number): boolean {
  return width <= MAX_PICTURE_SIDE && height <= MAX_PICTURE_SIDE && width * height <= MAX_PICTURE_PIXELS;
}

/**
 * Reads a picture's bytes: its type, size and metadata, or why it is refused. Never decodes pixels
 * and never allocates more than the list of parts, whatever the header claims.
 */
export function inspectImage(bytes: Uint8Array): ImageInspection {
  const type = sniffImageType(bytes);
  if (!type) return { ok: false, problem: 'not-an-image', type: null };
  let structure: Structure;
  try {
    structure = WALKERS[type](bytes);
  } catch (error) {
    if (error instanceof Damaged) return { ok: false, problem: 'damaged', type };
    throw error;
  }
  const { width, height } = structure;
  if (structure.end < bytes.length || structure.text.some(([start, end]) => containsMarkup(bytes, start, end))) {
    return { ok: false, problem: 'polyglot', type, width, height };
  }
  if (!withinPixelLimits(width, height) || structure.frames.some(([w, h]) => !withinPixelLimits(w, h))) {
    return { ok: false, problem: 'too-many-pixels', type, width, height };
  }
  return { ok: true, type, width, height, metadata: structure.metadata };
}

/**
 * The picture without its metadata parts (EXIF and its GPS position, XMP, comments, text chunks,
 * application extensions). A WebP's extended header forgets the EXIF and XMP it announced, and its
 * RIFF size is made again. Answers the same array when there was nothing to remove.
 */
export function stripMetadata(bytes: Uint8Array, inspection: Extract<ImageInspection, { ok: true }>): Uint8Array {
  const parts = [...inspection.metadata].sort((x, y) => x.start - y.start);
  if (parts.length === 0) return bytes;
  const removed = parts.reduce((n, p) => n + (p.end - p.start), 0);
  const out = new Uint8Array(bytes.length - removed);
  let read = 0;
  let written = 0;
  for (const part of parts) {
    out.set(bytes.subarray(read, part.start), written);
    written += part.start - read;
    read = part.end;
  }
  out.set(bytes.subarray(read), written);
  if (inspection.type === 'image/webp') {
    const riffSize = out.length - 8;
    out[4] = riffSize & 0xff;
    out[5] = (riffSize >>> 8) & 0xff;
    out[6] = (riffSize >>> 16) & 0xff;
    out[7] = (riffSize >>> 24) & 0xff;
    // VP8X flags: bit 3 EXIF, bit 2 XMP.
    if (startsWith(out, 12, 'VP8X')) out[20] = out[20]! & ~0x0c;
  }
  return out;
}
