/** What an author is told about a picture, the same words on both sides (docs/decisions/0022-pictures-on-the-server.md). */
import { MAX_PICTURE_PIXELS, MAX_PICTURE_SIDE } from './inspect.ts';
import { formatBytes } from './limits.ts';

export const MEDIA_MESSAGES = {
  notAnImage: 'This file is not a picture Chronicler can keep. Choose a JPEG, PNG, WebP or GIF image.',
  damaged: 'This picture is damaged or incomplete. Choose another file.',
  polyglot: 'This file is a picture with something else hidden inside it, so it was refused. Save it again from an image editor and try again.',
  tooManyPixels: `This picture is too large to open safely: at most ${MAX_PICTURE_SIDE} × ${MAX_PICTURE_SIDE} pixels and ${MAX_PICTURE_PIXELS / 1_000_000} megapixels.`,
  containsMetadata: 'This picture still contains metadata (such as EXIF, where a camera may record the place a photo was taken). Pictures are stored without it: upload the copy the app made.',
  hashMismatch: "The picture's bytes do not match its name (SHA-256): it was changed or cut short on the way. Please try again.",
  tooLarge: (maxBytes: number) => `This picture is larger than the ${formatBytes(maxBytes)} your plan allows for one picture.`,
  storageFull: (allowanceBytes: number, usedBytes: number) =>
    `There is no room for this picture: the series owner's plan keeps ${formatBytes(allowanceBytes)} of pictures and ${formatBytes(usedBytes)} are used. Remove pictures you no longer need, or upgrade for more room.`,
} as const;
