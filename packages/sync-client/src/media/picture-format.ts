/**
 * What a picture is on the wire and in a field (docs/decisions/0023-pictures-on-the-device.md):
 * the accepted types by their magic numbers, the dimensions a header tells before anything is
 * decoded, and the picture reference an entity field holds, `media:<display sha256>#thumb=<thumb sha256>`.
 *
 * The browser's copy of the contract the server enforces too (@chronicler/schema/media, whose
 * inspection walks whole files). Kept apart on purpose: it is part of the signed-in first route
 * (web/build/chunk-plan.ts), and the shared module's full inspection would add a request and
 * kilobytes there. `picture-format.test.ts` holds both to the same answers.
 */

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];
/** What the device uploads: the canvas's output (WebP, or JPEG where the canvas cannot encode WebP). */
export type UploadImageType = 'image/webp' | 'image/jpeg';

/** The largest picture accepted, by its header, before it is decoded (a decompression bomb is refused unread). */
export const MAX_IMAGE_EDGE = 8192;
export const MAX_IMAGE_PIXELS = 40_000_000;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

/** The image type the bytes say they are (their magic numbers), or null: never the name or declared type. */
export function sniffImageType(bytes: Uint8Array): AcceptedImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(bytes, 1, 'PNG\r\n\x1a\n')) return 'image/png';
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return 'image/gif';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'image/webp';
  return null;
}

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
  return width > 0 && height > 0 && width <= MAX_IMAGE_EDGE && height <= MAX_IMAGE_EDGE && width * height <= MAX_IMAGE_PIXELS;
}

// ---------------------------------------------------------------------------------------------
// The picture reference an entity field holds

export interface PictureRef {
  /** SHA-256 (lowercase hex) of the display size. */
  display: string;
  /** SHA-256 (lowercase hex) of the thumbnail. */
  thumb: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const REF = /^media:([0-9a-f]{64})#thumb=([0-9a-f]{64})$/;

export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}

/** The picture a field names, or null for a URL, an empty field or anything malformed. */
export function parsePictureRef(value: string | null | undefined): PictureRef | null {
  if (!value) return null;
  const match = REF.exec(value);
  return match ? { display: match[1]!, thumb: match[2]! } : null;
}

export function formatPictureRef({ display, thumb }: PictureRef): string {
  if (!isSha256Hex(display) || !isSha256Hex(thumb)) throw new Error('A picture reference needs two SHA-256 hex digests');
  return `media:${display}#thumb=${thumb}`;
}

/** The route of a picture of a series on the server. */
export function picturePath(seriesId: string, sha256: string): string {
  return `/api/series/${encodeURIComponent(seriesId)}/media/${sha256}`;
}
