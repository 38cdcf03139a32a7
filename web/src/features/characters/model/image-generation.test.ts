import { describe, expect, it, vi } from 'vitest';
import { IMAGE_GENERATION_DELAY_MS, PLACEHOLDER_IMAGES, generateCharacterImage } from './image-generation';

describe('simulated AI character image (001 §7 Local behaviour)', () => {
  it('has three bundled placeholder images (never a URL from the internet)', () => {
    expect(PLACEHOLDER_IMAGES).toHaveLength(3);
    for (const url of PLACEHOLDER_IMAGES) expect(url).not.toMatch(/^https?:/);
  });

  it('waits 1.5 s, then picks one of the three at random', async () => {
    const wait = vi.fn(async () => undefined);
    const images = ['one', 'two', 'three'];
    expect(await generateCharacterImage({ wait, images, random: () => 0 })).toBe('one');
    expect(await generateCharacterImage({ wait, images, random: () => 0.5 })).toBe('two');
    expect(await generateCharacterImage({ wait, images, random: () => 0.9999 })).toBe('three');
    expect(wait).toHaveBeenCalledWith(IMAGE_GENERATION_DELAY_MS);
    expect(IMAGE_GENERATION_DELAY_MS).toBe(1500);
  });

  it('makes no server call', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await generateCharacterImage({ wait: async () => undefined });
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
