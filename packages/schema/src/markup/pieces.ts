/**
 * Pieces of chapter text (the parts of a comparison, the stretches between a companion's
 * findings) as the author reads them: each cut where its emphasis changes, markers and escapes left out (docs/decisions/0009-chapter-markup.md). The
 * parts together are whole paragraphs, so markers are paired across them, as the editor pairs them.
 */
import { mayHoldMarkup, segmentParagraph } from './parse.ts';

export interface StyledPiece<K> {
  text: string;
  kind: K;
  italic: boolean;
  bold: boolean;
}

const HIDDEN = -1;
const ITALIC = 1;
const BOLD = 2;

/** For each character of `text`: HIDDEN, or its emphasis as ITALIC | BOLD bits. */
function stylesOf(text: string): Int8Array {
  const styles = new Int8Array(text.length);
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (mayHoldMarkup(line)) {
      for (const segment of segmentParagraph(line)) {
        const style = segment.kind === 'text' ? (segment.italic ? ITALIC : 0) | (segment.bold ? BOLD : 0) : HIDDEN;
        if (style !== 0) styles.fill(style, lineStart + segment.from, lineStart + segment.to);
      }
    }
    lineStart += line.length + 1;
  }
  return styles;
}

export function styledPieces<K>(parts: ReadonlyArray<{ text: string; kind: K }>): Array<StyledPiece<K>> {
  const text = parts.map((part) => part.text).join('');
  if (!mayHoldMarkup(text)) return parts.map((part) => ({ text: part.text, kind: part.kind, italic: false, bold: false }));
  const styles = stylesOf(text);
  const pieces: Array<StyledPiece<K>> = [];
  let at = 0;
  for (const part of parts) {
    const end = at + part.text.length;
    let i = at;
    while (i < end) {
      const style = styles[i]!;
      let j = i + 1;
      while (j < end && styles[j] === style) j++;
      if (style !== HIDDEN) pieces.push({ text: text.slice(i, j), kind: part.kind, italic: (style & ITALIC) !== 0, bold: (style & BOLD) !== 0 });
      i = j;
    }
    at = end;
  }
  return pieces;
}
