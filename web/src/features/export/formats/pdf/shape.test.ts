/** Shaping into a font's subset: the glyphs written are the glyphs drawn (not blank), in visual order. */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { diskFonts } from '../testing/fonts';
import { shape, writeLongGlyphOffsets } from './shape';

async function embedded(face: Parameters<ReturnType<typeof diskFonts>>[0]) {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await diskFonts()(face), { subset: true });
  writeLongGlyphOffsets(font);
  return font;
}

/** The subset font as it is written into the PDF, read back by fontkit. */
async function writtenSubset(font: Awaited<ReturnType<typeof embedded>>) {
  const embedder = (font as unknown as { embedder: { serializeFont(): Promise<Uint8Array> } }).embedder;
  return fontkit.create(await embedder.serializeFont());
}

describe('shape', () => {
  it('writes every CJK glyph with its outline (fontkit halved odd glyph offsets, which printed blank)', async () => {
    const font = await embedded('NotoSansSC-Regular');
    const text = '她走进了古老的图书馆，书架上落满了灰尘。';
    shape(font, text, false);
    const subset = await writtenSubset(font);
    // Glyph 0 is .notdef; each other glyph of the subset is one of the text's characters.
    for (let id = 1; id < subset.numGlyphs; id++) expect(subset.getGlyph(id).path.bbox.width, `glyph ${id}`).toBeGreaterThan(0);
    expect(subset.numGlyphs).toBe(new Set(text).size + 1);
  });

  it('joins Arabic and returns it in visual order, as wide as its glyphs', async () => {
    const font = await embedded('DejaVuSans');
    const logical = shape(font, 'لا', true);
    // The lam-alef ligature: one glyph.
    expect(logical.operand).toMatch(/^<[0-9a-f]{4}>$/);
    const word = shape(font, 'الريح', true);
    expect(word.width).toBeGreaterThan(0);
    expect(word.operand.replace(/[^0-9a-f]/g, '').length / 4).toBeLessThanOrEqual(5);
  });
});
