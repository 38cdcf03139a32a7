/**
 * What a picture is on the wire and in a field (docs/decisions/0023-pictures-on-the-device.md):
 * the accepted types by their magic numbers, the dimensions a header tells before anything is
 * decoded, and the picture reference an entity field holds, `media:<display sha256>#thumb=<thumb sha256>`.
 *
 * The shared rules (@chronicler/schema/media: the types, the limits, the reference) seen from the
 * device, plus what only the device needs (a header's size read from the first bytes of a file).
 */

import {
  ACCEPTED_IMAGE_TYPES,
  type ImageType,
  MAX_PICTURE_PIXELS,
  MAX_PICTURE_SIDE,
  formatMediaReference,
  isSha256Hex,
  parseMediaReference,
  sniffImageType,
  withinPixelLimits,
} from '@chronicler/schema/media';

export { ACCEPTED_IMAGE_TYPES, isSha256Hex, sniffImageType };
export type AcceptedImageType = ImageType;
/** What the device uploads: the canvas's output (WebP, or JPEG where the canvas cannot encode WebP). */
export type UploadImageType = 'image/webp' | 'image/jpeg';

/** The largest picture accepted, by its header, before it is decoded (the shared rule, @chronicler/schema/media). */
export const MAX_IMAGE_EDGE = MAX_PICTURE_SIDE;
export const MAX_IMAGE_PIXELS = MAX_PICTURE_PIXELS;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

export interface ImageSize {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;

/** JPEG start-of-frame markers (SOF0–SOF15 but DHT C4, JPG C8, DAC CC) carry the frame's size. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(b: Uint8Array): ImageSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end, or scan data before any frame header
    if (isStartOfFrame(marker)) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    i += 2 + u16be(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  if (b.length < 30) return null;
  if (ascii(b, 12, 'VP8X')) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (ascii(b, 12, 'VP8L')) {
    if (b[20] !== 0x2f) return null;
    const b1 = b[22]!, b2 = b[23]!, b3 = b[24]!;
    return { width: 1 + (((b1 & 0x3f) << 8) | b[21]!), height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)) };
  }
  if (ascii(b, 12, 'VP8 ')) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  return null;
}

/**
 * The picture's size as its header tells it (the start of the file: 256 KiB reach past a camera's
 * EXIF block), or null when the header does not say.
 */
export function headerImageSize(bytes: Uint8Array, type: AcceptedImageType): ImageSize | null {
  switch (type) {
    case 'image/png':
      return bytes.length >= 24 && ascii(bytes, 12, 'IHDR') ? { width: u32be(bytes, 16), height: u32be(bytes, 20) } : null;
    case 'image/gif':
      return bytes.length >= 10 ? { width: u16le(bytes, 6), height: u16le(bytes, 8) } : null;
    case 'image/webp':
      return webpSize(bytes);
    case 'image/jpeg':
      return jpegSize(bytes);
  }
}

/** How many bytes of a file `headerImageSize` needs at most. */
export const HEADER_BYTES = 256 * 1024;

/** True when a picture of this size may be decoded on the device. */
export function withinImageLimits({ width, height }: ImageSize): boolean {
  return width > 0 && height > 0 && withinPixelLimits(width, height);
}

// ---------------------------------------------------------------------------------------------
// The picture reference an entity field holds

export interface PictureRef {
  /** SHA-256 (lowercase hex) of the display size. */
  display: string;
  /** SHA-256 (lowercase hex) of the thumbnail. */
  thumb: string;
}

/** The picture a field names, or null for a URL, an empty field or anything malformed (a reference without a thumbnail shows its display size). */
export function parsePictureRef(value: string | null | undefined): PictureRef | null {
  const reference = parseMediaReference(value);
  return reference ? { display: reference.display, thumb: reference.thumb ?? reference.display } : null;
}

export function formatPictureRef({ display, thumb }: PictureRef): string {
  if (!isSha256Hex(display) || !isSha256Hex(thumb)) throw new Error('A picture reference needs two SHA-256 hex digests');
  return formatMediaReference({ display, thumb });
}

/** The route of a picture of a series on the server. */
export function picturePath(seriesId: string, sha256: string): string {
  return `/api/series/${encodeURIComponent(seriesId)}/media/${sha256}`;
}
