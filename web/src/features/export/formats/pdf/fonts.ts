/**
 * Which font prints each character of a PDF export: per character, the first face in the fallback
 * order of its style that has a glyph (docs/web.md, "Export"). Faces are loaded only when a
 * character needs them (a Latin book never fetches the Chinese font) and embedded only when one of
 * their glyphs is used, subset.
 *
 * Fallback order, for a style (regular, italic, bold, bold italic) and the profile's family:
 *   1. DejaVu of the profile's family, in that style;
 *   2. DejaVu of the other family, in that style (Sans adds Arabic and Hebrew);
 *   3. for italic, DejaVu Sans upright, slanted (its obliques lack Arabic);
 *   4. Noto Sans CJK: the paragraph's language first (kana: Japanese, hangul: Korean, else Chinese),
 *      so shared Han characters take that language's forms; slanted for italic (CJK has no italic);
 *   5. Noto Emoji (slanted for italic).
 * A character none of them has is printed as □ and named in the export's notices.
 */
import fontkit, { type Font } from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import type { ExportFont } from '@chronicler/schema';
import { type FontFace, type FontSource, ON_NEED_FACES } from './font-files';
import { writeLongGlyphOffsets } from './shape';

export type StyleKey = 'regular' | 'italic' | 'bold' | 'boldItalic';
export type CjkLanguage = 'ja' | 'ko' | 'zh';

export function styleKey(italic: boolean, bold: boolean): StyleKey {
  return bold ? (italic ? 'boldItalic' : 'bold') : italic ? 'italic' : 'regular';
}

const DEJAVU: Record<ExportFont, Record<StyleKey, FontFace>> = {
  serif: { regular: 'DejaVuSerif', italic: 'DejaVuSerif-Italic', bold: 'DejaVuSerif-Bold', boldItalic: 'DejaVuSerif-BoldItalic' },
  sans: { regular: 'DejaVuSans', italic: 'DejaVuSans-Oblique', bold: 'DejaVuSans-Bold', boldItalic: 'DejaVuSans-BoldOblique' },
};

const CJK: Record<CjkLanguage, { regular: FontFace; bold: FontFace }> = {
  zh: { regular: 'NotoSansSC-Regular', bold: 'NotoSansSC-Bold' },
  ja: { regular: 'NotoSansJP-Regular', bold: 'NotoSansJP-Bold' },
  ko: { regular: 'NotoSansKR-Regular', bold: 'NotoSansKR-Bold' },
};
const CJK_ORDER: Record<CjkLanguage, CjkLanguage[]> = { zh: ['zh', 'ja', 'ko'], ja: ['ja', 'zh', 'ko'], ko: ['ko', 'zh', 'ja'] };

/** Characters the CJK fonts are fetched for (Han, kana, hangul, CJK punctuation and full-width forms). */
const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303f\u3200-\u33ff\ufe30-\ufe4f\uff00-\uffef]/u;
/** Characters the emoji font is fetched for. */
const EMOJI_CHARACTER = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1f3fb}-\u{1f3ff}]|\u20e3/u;
/** Format characters (joiners, variation selectors, direction marks): printed by no font, never missing. */
const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

/** Whether a character is a format character (the first, U+00AD, is the soft hyphen; ASCII has none). */
export function isInvisible(char: string): boolean {
  return char.charCodeAt(0) >= 0xad && DEFAULT_IGNORABLE.test(char);
}

/** The visible mark printed for a character no font has. */
export const MISSING_MARK = '\u25a1';

interface Candidate {
  face: FontFace;
  /** Drawn slanted: the style asks for italic and this face has none. */
  slant: boolean;
  /** Only characters this matches are tried in the face (it is fetched for them alone). */
  only?: RegExp;
}

function fallbackOrder(family: ExportFont, style: StyleKey, cjk: CjkLanguage): Candidate[] {
  const italic = style === 'italic' || style === 'boldItalic';
  const bold = style === 'bold' || style === 'boldItalic';
  const other: ExportFont = family === 'serif' ? 'sans' : 'serif';
  const order: Candidate[] = [
    { face: DEJAVU[family][style], slant: false },
    { face: DEJAVU[other][style], slant: false },
  ];
  if (italic) order.push({ face: DEJAVU.sans[bold ? 'bold' : 'regular'], slant: true });
  for (const language of CJK_ORDER[cjk]) order.push({ face: CJK[language][bold ? 'bold' : 'regular'], slant: italic, only: CJK_CHARACTER });
  order.push({ face: bold ? 'NotoEmoji-Bold' : 'NotoEmoji-Regular', slant: italic, only: EMOJI_CHARACTER });
  return order;
}

/** A face as loaded: parsed for its coverage, embedded in the document once a glyph is used. */
export interface LoadedFace {
  readonly face: FontFace;
  readonly fontkitFont: Font;
  /** The embedded (subset) font; null until `embed`. */
  pdfFont: PDFFont | null;
}

/** The face and drawing of one character in one style. */
export interface Pick {
  readonly face: LoadedFace;
  readonly slant: boolean;
}

export class FontBook {
  private readonly loaded = new Map<FontFace, Promise<LoadedFace>>();
  private readonly ready = new Map<FontFace, LoadedFace>();
  private readonly picks = new Map<string, Pick | null>();
  private readonly wanted = new Map<string, { char: string; style: StyleKey; cjk: CjkLanguage }>();
  private readonly bytes = new Map<FontFace, Uint8Array>();
  /** Characters no face has, in order of first use. */
  readonly missing = new Set<string>();
  /** Whether any character printed with the emoji font. */
  emojiUsed = false;

  constructor(
    private readonly doc: PDFDocument,
    private readonly family: ExportFont,
    private readonly source: FontSource,
  ) {}

  private key(char: string, style: StyleKey, cjk: CjkLanguage): string {
    // The CJK language orders fonts only for characters a CJK font may hold (none below U+1100, hangul jamo).
    return `${style}|${char.charCodeAt(0) >= 0x1100 && CJK_CHARACTER.test(char) ? cjk : ''}|${char}`;
  }

  /** Notes the characters of a text in a style, to be resolved (and their fonts loaded) by `resolve`. */
  want(text: string, style: StyleKey, cjk: CjkLanguage): void {
    for (const char of text) {
      if (isInvisible(char)) continue;
      const key = this.key(char, style, cjk);
      if (!this.picks.has(key) && !this.wanted.has(key)) this.wanted.set(key, { char, style, cjk });
    }
  }

  /** Picks a face for every wanted character, loading faces as the fallback order reaches them. */
  async resolve(): Promise<void> {
    for (const [key, { char, style, cjk }] of this.wanted) {
      let pick: Pick | null = null;
      const codePoint = char.codePointAt(0)!;
      for (const candidate of fallbackOrder(this.family, style, cjk)) {
        if (candidate.only && !candidate.only.test(char)) continue;
        const face = await this.load(candidate.face);
        if (face.fontkitFont.hasGlyphForCodePoint(codePoint)) {
          pick = { face: await this.embed(face), slant: candidate.slant };
          break;
        }
      }
      if (pick === null) this.missing.add(char);
      else if (pick.face.face.startsWith('NotoEmoji')) this.emojiUsed = true;
      this.picks.set(key, pick);
    }
    this.wanted.clear();
    // The mark for missing characters needs its own face.
    if (this.missing.size > 0 && !this.picks.has(this.key(MISSING_MARK, 'regular', 'zh'))) {
      this.want(MISSING_MARK, 'regular', 'zh');
      await this.resolve();
    }
  }

  /** The face for a character (after `resolve`); null: no face has it. */
  pick(char: string, style: StyleKey, cjk: CjkLanguage): Pick | null {
    const pick = this.picks.get(this.key(char, style, cjk));
    if (pick === undefined) throw new Error(`Font for ${char} was not resolved`);
    return pick;
  }

  /** The face that prints the □ standing for a missing character. */
  missingMark(): Pick {
    return this.pick(MISSING_MARK, 'regular', 'zh')!;
  }

  private load(face: FontFace): Promise<LoadedFace> {
    let loading = this.loaded.get(face);
    if (loading === undefined) {
      loading = this.fetch(face).then((bytes) => {
        this.bytes.set(face, bytes);
        const loadedFace: LoadedFace = { face, fontkitFont: fontkit.create(bytes), pdfFont: null };
        this.ready.set(face, loadedFace);
        return loadedFace;
      });
      this.loaded.set(face, loading);
    }
    return loading;
  }

  private async fetch(face: FontFace): Promise<Uint8Array> {
    try {
      return await this.source(face);
    } catch (error) {
      const script = ON_NEED_FACES[face];
      if (script === undefined) throw error;
      // Fonts for other scripts download the first time an export needs them (docs/web.md, "Export").
      throw new Error(`This PDF needs the ${script} font, which downloads the first time it is used and could not be downloaded now. Connect to the internet once and export again; after that it works offline.`, { cause: error });
    }
  }

  private async embed(face: LoadedFace): Promise<LoadedFace> {
    if (face.pdfFont === null) {
      face.pdfFont = await this.doc.embedFont(this.bytes.get(face.face)!, { subset: true });
      writeLongGlyphOffsets(face.pdfFont);
    }
    return face;
  }
}
