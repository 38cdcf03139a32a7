/**
 * A paragraph set into lines for the PDF (docs/web.md, "Export"): where a line may break comes from
 * the Unicode line-breaking algorithm (UAX #14, the `linebreak` package), so Chinese and Japanese
 * break between characters, never before a closing mark; a piece wider than a line is cut between
 * grapheme clusters. Each piece is cut into atoms of one face, one style and one direction level
 * (the Unicode bidi algorithm, `bidi-js`), shaped by fontkit; a line's atoms are then put in visual
 * order (rule L2), so Arabic and Hebrew read right to left with their numbers and Latin words
 * left to right inside them.
 */
import { LineBreaker } from 'linebreak';
import type { Run } from '@chronicler/schema';
import { bidiAlgorithm, cjkLanguage, paragraphDirection } from '../script';
import { type FontBook, type LoadedFace, type StyleKey, MISSING_MARK, isInvisible, styleKey } from './fonts';
import { type Shaped, shape } from './shape';

/** A shaped piece of a line in one face. */
export interface Atom {
  readonly face: LoadedFace;
  readonly slant: boolean;
  /** Bidi embedding level: odd is right to left. */
  readonly level: number;
  readonly shaped: Shaped;
}

export interface Line {
  /** In visual order, left to right. */
  readonly atoms: readonly Atom[];
  /** Width at 1 pt. */
  readonly width: number;
}

export interface SetParagraph {
  readonly lines: readonly Line[];
  readonly rtl: boolean;
}

interface Piece {
  atoms: Atom[];
  /** The spaces after the piece (dropped at the end of a line). */
  trailing: Atom[];
  width: number;
  trailingWidth: number;
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
const sum = (atoms: readonly Atom[]) => atoms.reduce((w, a) => w + a.shaped.width, 0);

export class ParagraphSetter {
  /** Shaped text by face, direction and text: a book repeats its words. */
  private readonly shapes = new Map<string, Shaped>();
  /** Set pieces (a word and its spaces) of one style, left to right, by style, language and text. */
  private readonly pieces = new Map<string, Piece[]>();

  constructor(private readonly fonts: FontBook) {}

  /** Notes the characters of a paragraph, so the font book loads what it needs before setting. */
  want(runs: readonly Run[]): void {
    const cjk = cjkLanguage(runs.map((r) => r.text).join('')) ?? 'zh';
    for (const run of runs) this.fonts.want(run.text, styleKey(run.italic, run.bold), cjk);
  }

  /** Sets the runs into lines `width` wide (at 1 pt), the first narrowed by `firstIndent`. */
  set(runs: readonly Run[], width: number, firstIndent: number): SetParagraph {
    const text = runs.map((r) => r.text).join('');
    const rtl = paragraphDirection(text) === 'rtl';
    const levels = rtl || /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200f\u202b\u202e\u2067]/u.test(text)
      ? bidiAlgorithm().getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr').levels
      : null;
    const cjk = cjkLanguage(text) ?? 'zh';
    const styles: StyleKey[] = [];
    /** Where each run after the first starts. */
    const runStarts: number[] = [];
    for (const run of runs) {
      if (styles.length > 0) runStarts.push(styles.length);
      for (let i = 0; i < run.text.length; i++) styles.push(styleKey(run.italic, run.bold));
    }
    let nextRun = 0;

    const atomsOf = (from: number, to: number): Atom[] => {
      const atoms: Atom[] = [];
      let current: { face: LoadedFace; slant: boolean; level: number; text: string } | null = null;
      let pendingInvisible = '';
      const close = () => {
        if (current !== null) atoms.push(this.atom(current.face, current.slant, current.level, current.text));
        current = null;
      };
      for (let i = from; i < to; ) {
        const char = String.fromCodePoint(text.codePointAt(i)!);
        const at = i;
        i += char.length;
        if (isInvisible(char)) {
          if (current === null) pendingInvisible += char;
          else current.text += char;
          continue;
        }
        const pick = this.fonts.pick(char, styles[at]!, cjk) ?? this.fonts.missingMark();
        const printed = this.fonts.missing.has(char) ? MISSING_MARK : char;
        const level = levels?.[at] ?? 0;
        const c = current as { face: LoadedFace; slant: boolean; level: number; text: string } | null;
        if (c !== null && c.face === pick.face && c.slant === pick.slant && c.level === level) c.text += printed;
        else {
          close();
          current = { face: pick.face, slant: pick.slant, level, text: pendingInvisible + printed };
          pendingInvisible = '';
        }
      }
      close();
      return atoms.filter((a) => a.shaped.operand !== '');
    };

    const pieces: Piece[] = [];
    const breaker = new LineBreaker(text);
    let last = 0;
    for (let brk = breaker.nextBreak(); brk !== null; brk = breaker.nextBreak()) {
      const end = brk.position;
      // A word of one style, left to right, is set the same wherever it comes: set once.
      while (nextRun < runStarts.length && runStarts[nextRun]! <= last) nextRun++;
      const key = levels === null && (nextRun >= runStarts.length || runStarts[nextRun]! >= end) ? `${styles[last]}|${cjk}|${width}|${text.slice(last, end)}` : null;
      const known = key === null ? undefined : this.pieces.get(key);
      if (known !== undefined) {
        pieces.push(...known);
        last = end;
        continue;
      }
      const from = pieces.length;
      let contentEnd = end;
      while (contentEnd > last && /\s/u.test(text[contentEnd - 1]!)) contentEnd--;
      const atoms = atomsOf(last, contentEnd);
      const trailing = atomsOf(contentEnd, end);
      const piece: Piece = { atoms, trailing, width: sum(atoms), trailingWidth: sum(trailing) };
      if (piece.width > width) {
        // Wider than a line (a long URL, a run of letters with no break): cut between graphemes.
        const parts = [...graphemes.segment(text.slice(last, contentEnd))].map((g) => atomsOf(last + g.index, last + g.index + g.segment.length));
        parts.forEach((part, k) => {
          const isLast = k === parts.length - 1;
          pieces.push({ atoms: part, trailing: isLast ? trailing : [], width: sum(part), trailingWidth: isLast ? piece.trailingWidth : 0 });
        });
      } else pieces.push(piece);
      if (key !== null && this.pieces.size < 200_000) this.pieces.set(key, pieces.slice(from));
      last = end;
    }

    const lines: Line[] = [];
    let current: Piece[] = [];
    let used = 0;
    const flush = () => {
      const atoms = current.flatMap((p, k) => (k < current.length - 1 ? [...p.atoms, ...p.trailing] : p.atoms));
      lines.push({ atoms: levels === null ? atoms : visualOrder(atoms), width: sum(atoms) });
      current = [];
      used = 0;
    };
    for (const piece of pieces) {
      const available = width - (lines.length === 0 ? firstIndent : 0);
      if (current.length > 0 && used + piece.width > available) flush();
      current.push(piece);
      used += piece.width + piece.trailingWidth;
    }
    if (current.length > 0) flush();
    return { lines, rtl };
  }

  private atom(face: LoadedFace, slant: boolean, level: number, text: string): Atom {
    const rtl = level % 2 === 1;
    let printed = '';
    for (const char of text) {
      // Format characters the face cannot draw are not printed (they would show as boxes).
      if (isInvisible(char) && !face.fontkitFont.hasGlyphForCodePoint(char.codePointAt(0)!)) continue;
      printed += rtl ? (bidiAlgorithm().getMirroredCharacter(char) ?? char) : char;
    }
    const key = `${face.face}|${rtl ? 'r' : 'l'}|${printed}`;
    let shaped = this.shapes.get(key);
    if (shaped === undefined) {
      shaped = printed === '' ? { operand: '', width: 0 } : shape(face.pdfFont!, printed, rtl);
      if (this.shapes.size < 200_000) this.shapes.set(key, shaped);
    }
    return { face, slant, level, shaped };
  }
}

/** Rule L2 of the bidi algorithm on a line's atoms: from the highest level down to the lowest odd one, reverse each stretch at that level or above. */
function visualOrder(atoms: Atom[]): Atom[] {
  if (atoms.length === 0) return atoms;
  const levels = atoms.map((a) => a.level);
  const highest = Math.max(...levels);
  const lowest = Math.min(...levels);
  const lowestOdd = lowest % 2 === 1 ? lowest : lowest + 1;
  const out = [...atoms];
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j]!.level >= level) j++;
      const reversed = out.slice(i, j).reverse();
      out.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return out;
}
