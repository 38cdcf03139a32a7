/**
 * The crop dialog's geometry (docs/decisions/0023-pictures-on-the-device.md): a picture's shape,
 * the crop window within the source (zoom and centre, always inside the picture), the keyboard's
 * steps, and the output sizes. Pure: the dialog and the pipeline draw what these answer.
 */

export interface Size {
  width: number;
  height: number;
}

export interface Rect extends Size {
  x: number;
  y: number;
}

/** Where a picture is used, and so its shape. */
export type PictureShape = 'cover' | 'portrait' | 'place';

export interface ShapeSpec {
  /** Width over height. */
  aspect: number;
  /** The crop dialog's title. */
  title: string;
  /** What the picture is, in a sentence ("the series cover"). */
  noun: string;
}

/**
 * A series cover is a book's 2:3 portrait; a character portrait is square (round where it is shown
 * small: the avatar, the relationship map's node); a place is a 16:9 landscape, as the world
 * screen's cards show it.
 */
export const PICTURE_SHAPES: Readonly<Record<PictureShape, ShapeSpec>> = {
  cover: { aspect: 2 / 3, title: 'Crop the cover', noun: 'cover' },
  portrait: { aspect: 1, title: 'Crop the portrait', noun: 'portrait' },
  place: { aspect: 16 / 9, title: 'Crop the picture', noun: 'picture' },
};

/** The display size's long side, and the thumbnail's (lists, cards and map nodes). */
export const DISPLAY_LONG_SIDE = 1600;
export const THUMB_LONG_SIDE = 320;
/** How far in the crop may zoom: to an eighth of the largest crop. */
export const MAX_ZOOM = 8;
/** An arrow key moves the crop by this share of its size; Shift moves five times as far. */
export const MOVE_STEP = 0.05;
/** + and - zoom by this factor. */
export const ZOOM_STEP = 1.15;

export interface CropState {
  /** 1: the largest crop of the shape that fits in the picture. */
  zoom: number;
  /** The crop's centre, in the source's pixels. */
  cx: number;
  cy: number;
}

/** The largest rectangle of `aspect` inside `source`. */
export function largestCrop(source: Size, aspect: number): Size {
  if (source.width / source.height > aspect) return { width: source.height * aspect, height: source.height };
  return { width: source.width, height: source.width / aspect };
}

export function initialCrop(source: Size): CropState {
  return { zoom: 1, cx: source.width / 2, cy: source.height / 2 };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The crop's rectangle in the source: the state's zoom and centre, moved inside the picture. */
export function cropRect(source: Size, aspect: number, state: CropState): Rect {
  const base = largestCrop(source, aspect);
  const zoom = clamp(state.zoom, 1, MAX_ZOOM);
  const width = base.width / zoom;
  const height = base.height / zoom;
  const cx = clamp(state.cx, width / 2, source.width - width / 2);
  const cy = clamp(state.cy, height / 2, source.height - height / 2);
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

/** The state with its centre and zoom brought within what `cropRect` draws. */
export function normaliseCrop(source: Size, aspect: number, state: CropState): CropState {
  const r = cropRect(source, aspect, state);
  return { zoom: clamp(state.zoom, 1, MAX_ZOOM), cx: r.x + r.width / 2, cy: r.y + r.height / 2 };
}

/** Moves the crop by a share of its own size (`dx` 0.05: a twentieth of its width to the right). */
export function moveCrop(source: Size, aspect: number, state: CropState, dx: number, dy: number): CropState {
  const r = cropRect(source, aspect, state);
  return normaliseCrop(source, aspect, { ...state, cx: r.x + r.width / 2 + dx * r.width, cy: r.y + r.height / 2 + dy * r.height });
}

/** Moves the crop by source pixels (a drag). */
export function dragCrop(source: Size, aspect: number, state: CropState, dxPx: number, dyPx: number): CropState {
  const r = cropRect(source, aspect, state);
  return normaliseCrop(source, aspect, { ...state, cx: r.x + r.width / 2 + dxPx, cy: r.y + r.height / 2 + dyPx });
}

/** Zooms by `factor` about the crop's centre (it stays inside the picture). */
export function zoomCrop(source: Size, aspect: number, state: CropState, factor: number): CropState {
  const r = cropRect(source, aspect, state);
  return normaliseCrop(source, aspect, { zoom: state.zoom * factor, cx: r.x + r.width / 2, cy: r.y + r.height / 2 });
}

/** What a key does to the crop, or null for a key it leaves alone. */
export function cropForKey(source: Size, aspect: number, state: CropState, key: string, shift = false): CropState | null {
  const step = MOVE_STEP * (shift ? 5 : 1);
  switch (key) {
    case 'ArrowLeft':
      return moveCrop(source, aspect, state, -step, 0);
    case 'ArrowRight':
      return moveCrop(source, aspect, state, step, 0);
    case 'ArrowUp':
      return moveCrop(source, aspect, state, 0, -step);
    case 'ArrowDown':
      return moveCrop(source, aspect, state, 0, step);
    case '+':
    case '=':
      return zoomCrop(source, aspect, state, ZOOM_STEP);
    case '-':
    case '_':
      return zoomCrop(source, aspect, state, 1 / ZOOM_STEP);
    case '0':
      return initialCrop(source);
    default:
      return null;
  }
}

/** The output size of a crop with `longSide` at most: scaled down, never up; whole pixels, at least 1. */
export function outputSize(crop: Size, longSide: number): Size {
  const scale = Math.min(1, longSide / Math.max(crop.width, crop.height));
  return { width: Math.max(1, Math.round(crop.width * scale)), height: Math.max(1, Math.round(crop.height * scale)) };
}
