/**
 * Shaping a piece of text in one embedded face: fontkit's layout (ligatures, kerning, Arabic
 * joining; glyphs come back in visual order for right-to-left text) turned into a PDF text-array
 * operand of glyph ids in the face's subset, with kerning as the array's adjustments.
 *
 * pdf-lib's own `encodeText` lays text out left to right with no way to give the direction, and
 * ignores kerning; this does what it does for the subset (each glyph included, and kept for the
 * ToUnicode map, so the text copies and `pdftotext` reads it) with the direction asked for.
 */
import type { Glyph, GlyphRun, TypeFeatures } from '@pdf-lib/fontkit';
import type { PDFFont } from 'pdf-lib';

/** The parts of pdf-lib's CustomFontSubsetEmbedder (pdf-lib 1.17) a shaped run goes through. */
interface SubsetEmbedder {
  font: { unitsPerEm: number; layout(text: string, features?: TypeFeatures, script?: string, language?: string, direction?: 'ltr' | 'rtl'): GlyphRun };
  fontFeatures?: TypeFeatures;
  subset: { includeGlyph(glyph: Glyph): number };
  glyphs: Glyph[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
}

export interface Shaped {
  /** The inside of a TJ array: `<hex> adjustment <hex>`… */
  readonly operand: string;
  /** Advance width at 1 pt. */
  readonly width: number;
}

/**
 * fontkit (1.x, inside pdf-lib) writes a subset's glyph offsets in the short format whenever they
 * fit, halving them, which is only right when every glyph's data has even length: in the Noto CJK
 * fonts many do not, and those glyphs printed blank (while pdftotext still read the text). The long
 * format holds any offset, so every subset is written with it.
 */
export function writeLongGlyphOffsets(font: PDFFont): void {
  const subset = embedderOf(font).subset as unknown as { _addGlyph?: (gid: number) => number; loca?: { version?: number } };
  const addGlyph = subset._addGlyph;
  if (typeof addGlyph !== 'function') return;
  subset._addGlyph = function (this: typeof subset, gid: number) {
    if (this.loca) this.loca.version = 1;
    return addGlyph.call(this, gid);
  };
}

function embedderOf(font: PDFFont): SubsetEmbedder {
  const embedder = (font as unknown as { embedder: SubsetEmbedder }).embedder;
  if (typeof embedder?.subset?.includeGlyph !== 'function') throw new Error('pdf-lib no longer exposes its subset embedder (formats/pdf/shape.ts)');
  return embedder;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

export function shape(font: PDFFont, text: string, rtl: boolean): Shaped {
  const embedder = embedderOf(font);
  const units = embedder.font.unitsPerEm;
  const run = embedder.font.layout(text, embedder.fontFeatures, undefined, undefined, rtl ? 'rtl' : 'ltr');
  let operand = '';
  let codes = '';
  let advance = 0;
  run.glyphs.forEach((glyph, i) => {
    const id = embedder.subset.includeGlyph(glyph);
    embedder.glyphs[id - 1] = glyph;
    embedder.glyphIdMap.set(glyph.id, id);
    codes += hex4(id);
    const xAdvance = run.positions[i]!.xAdvance;
    advance += xAdvance;
    // The viewer advances by the glyph's own width; kerning is the difference, in thousandths of an em.
    const adjust = Math.round(((glyph.advanceWidth - xAdvance) * 1000) / units);
    if (adjust !== 0) {
      operand += `<${codes}>${adjust}`;
      codes = '';
    }
  });
  if (codes !== '') operand += `<${codes}>`;
  embedder.glyphCache.invalidate();
  return { operand, width: advance / units };
}
