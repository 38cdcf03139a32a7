/**
 * AI character image generation, simulated on the client as spec 001 §7 "Local behaviour" says
 * (kept until a real image provider exists, docs/spec-differences.md): wait 1.5 s, then pick one of
 * three placeholder images at random. No server call. The images are bundled with the app (no
 * network at run time, docs/measurements.md#platform-facts); `?no-inline` keeps them as files so
 * the stored URL stays short.
 */
import portrait1 from '../assets/portrait-1.svg?no-inline';
import portrait2 from '../assets/portrait-2.svg?no-inline';
import portrait3 from '../assets/portrait-3.svg?no-inline';

export const PLACEHOLDER_IMAGES: readonly string[] = [portrait1, portrait2, portrait3];
export const IMAGE_GENERATION_DELAY_MS = 1500;

export interface GenerateImageOptions {
  /** 0 ≤ x < 1 (Math.random by default). */
  random?: () => number;
  wait?: (ms: number) => Promise<void>;
  images?: readonly string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves to one of the placeholder image URLs after 1.5 s. */
export async function generateCharacterImage(options: GenerateImageOptions = {}): Promise<string> {
  const { random = Math.random, wait = sleep, images = PLACEHOLDER_IMAGES } = options;
  await wait(IMAGE_GENERATION_DELAY_MS);
  if (images.length === 0) throw new Error('No placeholder images');
  const index = Math.min(images.length - 1, Math.max(0, Math.floor(random() * images.length)));
  return images[index]!;
}
