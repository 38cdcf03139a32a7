/**
 * From a chosen file to the two pictures the device keeps and uploads
 * (docs/decisions/0023-pictures-on-the-device.md): the file's bytes are checked first (its magic
 * numbers, and its size in pixels where the header tells — a decompression bomb is refused before
 * it is decoded), then decoded (a GIF's first frame), cropped to its shape and drawn at the display
 * size and the thumbnail size, encoded as WebP (JPEG where the canvas cannot encode WebP). Drawing
 * on a canvas keeps only pixels: EXIF, GPS and every other metadata stay behind. The original is
 * never stored or uploaded.
 */
import {
  HEADER_BYTES,
  MAX_IMAGE_EDGE,
  MAX_IMAGE_PIXELS,
  type AcceptedImageType,
  type UploadImageType,
  headerImageSize,
  sniffImageType,
  withinImageLimits,
} from '@chronicler/sync-client';
import { DISPLAY_LONG_SIDE, THUMB_LONG_SIDE, type Rect, type Size, outputSize } from './crop';
import { MEDIA_MESSAGES } from '@chronicler/schema/media';

/** A file larger than this is refused before it is read (a phone's photo is 3 to 12 MB). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

export const PICTURE_MESSAGES = {
  notAPicture: MEDIA_MESSAGES.notAnImage,
  fileTooLarge: 'This file is too large. Choose a picture of at most 50 MB.',
  tooManyPixels: (size: Size) =>
    `This picture is too large (${size.width} × ${size.height} pixels). Choose one of at most ${MAX_IMAGE_EDGE} × ${MAX_IMAGE_EDGE} pixels and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
  unreadable: MEDIA_MESSAGES.damaged,
  cannotEncode: 'This browser could not make the picture. Try another browser.',
} as const;

export class PictureError extends Error {
  override name = 'PictureError';
}

/** A Blob's bytes (FileReader where Blob.arrayBuffer is missing: older engines, jsdom). */
export function blobBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

export interface CheckedFile {
  type: AcceptedImageType;
  /** The size its header tells; null when the header does not say (checked again once decoded). */
  size: Size | null;
}

/** Checks a chosen file by its bytes before anything decodes it; throws a PictureError with what to do. */
export async function checkPictureFile(file: Blob): Promise<CheckedFile> {
  if (file.size > MAX_FILE_BYTES) throw new PictureError(PICTURE_MESSAGES.fileTooLarge);
  const head = await blobBytes(file.slice(0, HEADER_BYTES));
  const type = sniffImageType(head);
  if (!type) throw new PictureError(PICTURE_MESSAGES.notAPicture);
  const size = headerImageSize(head, type);
  if (size && !withinImageLimits(size)) throw new PictureError(PICTURE_MESSAGES.tooManyPixels(size));
  return { type, size };
}

export interface DecodedPicture {
  source: CanvasImageSource;
  size: Size;
  close(): void;
}

/** Decodes a checked file (a GIF's first frame), upright as its EXIF orientation says. */
export async function decodePicture(file: Blob): Promise<DecodedPicture> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new PictureError(PICTURE_MESSAGES.unreadable);
  }
  const size = { width: bitmap.width, height: bitmap.height };
  if (!withinImageLimits(size)) {
    bitmap.close();
    throw new PictureError(PICTURE_MESSAGES.tooManyPixels(size));
  }
  return { source: bitmap, size, close: () => bitmap.close() };
}

type AnyCanvas = OffscreenCanvas | HTMLCanvasElement;

function makeCanvas({ width, height }: Size): AnyCanvas {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function encode(canvas: AnyCanvas, type: UploadImageType, quality: number): Promise<Blob | null> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type, quality }).catch(() => null);
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

export interface MadePicture {
  blob: Blob;
  type: UploadImageType;
  width: number;
  height: number;
}

/** Draws `from` (a rectangle of `source`) at `size`; JPEG gets a white ground (it has no transparency). */
function draw(source: CanvasImageSource, from: Rect, size: Size, opaque: boolean): AnyCanvas {
  const canvas = makeCanvas(size);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!ctx) throw new PictureError(PICTURE_MESSAGES.cannotEncode);
  if (opaque) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, size.width, size.height);
  }
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, from.x, from.y, from.width, from.height, 0, 0, size.width, size.height);
  return canvas;
}

/** WebP where the canvas encodes it (it answers PNG where it cannot), JPEG otherwise. */
async function render(source: CanvasImageSource, from: Rect, size: Size): Promise<{ canvas: AnyCanvas; picture: MadePicture }> {
  const canvas = draw(source, from, size, false);
  const webp = await encode(canvas, 'image/webp', 0.85);
  if (webp && webp.type === 'image/webp' && sniffImageType(await blobBytes(webp.slice(0, 16))) === 'image/webp') {
    return { canvas, picture: { blob: webp, type: 'image/webp', ...size } };
  }
  const opaque = draw(source, from, size, true);
  const jpeg = await encode(opaque, 'image/jpeg', 0.88);
  if (!jpeg || sniffImageType(await blobBytes(jpeg.slice(0, 16))) !== 'image/jpeg') throw new PictureError(PICTURE_MESSAGES.cannotEncode);
  return { canvas: opaque, picture: { blob: jpeg, type: 'image/jpeg', ...size } };
}

/** The display size and the thumbnail of a crop; the thumbnail is drawn from the display size (smoother than one big step). */
export async function makePictures(decoded: DecodedPicture, crop: Rect): Promise<{ display: MadePicture; thumb: MadePicture }> {
  const displaySize = outputSize(crop, DISPLAY_LONG_SIDE);
  const display = await render(decoded.source, crop, displaySize);
  const thumbSize = outputSize(displaySize, THUMB_LONG_SIDE);
  const thumb = await render(display.canvas, { x: 0, y: 0, ...displaySize }, thumbSize);
  return { display: display.picture, thumb: thumb.picture };
}
