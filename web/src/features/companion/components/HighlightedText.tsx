import { Fragment, type ReactNode, useMemo } from 'react';
import { Box } from '@mantine/core';
import { FINDING_LABELS, type Finding } from '@chronicler/companion';
import { styledPieces } from '@chronicler/schema';
import classes from '../companion.module.css';

/**
 * The analysed text with each finding marked where it is (overlapping findings: the first wins
 * that stretch). Marks carry their label for screen readers and a tooltip. Emphasis shows as
 * <em>/<strong>, its markers left out (docs/decisions/0009-chapter-markup.md); findings' offsets are
 * in the marked text, which is what is cut here.
 */
export function HighlightedText({ text, findings, activeIndex }: { text: string; findings: readonly Finding[]; activeIndex?: number | null }) {
  const parts = useMemo(() => {
    const out: Array<{ text: string; finding?: Finding; index?: number }> = [];
    let at = 0;
    findings.forEach((f, index) => {
      if (f.start < at || f.end <= f.start) return;
      if (f.start > at) out.push({ text: text.slice(at, f.start) });
      out.push({ text: text.slice(f.start, f.end), finding: f, index });
      at = f.end;
    });
    if (at < text.length) out.push({ text: text.slice(at) });
    // Each part as the author reads it: pieces of one emphasis each, markers paired across the parts.
    const pieces = styledPieces(out.map((part, i) => ({ text: part.text, kind: i })));
    const shown = out.map(() => [] as typeof pieces);
    for (const piece of pieces) shown[piece.kind]!.push(piece);
    return out.map((part, i) => ({ ...part, shown: shown[i]! }));
  }, [text, findings]);
  const render = (shown: (typeof parts)[number]['shown']): ReactNode =>
    shown.map((piece, k) => {
      let content: ReactNode = piece.text;
      if (piece.italic) content = <em>{content}</em>;
      if (piece.bold) content = <strong>{content}</strong>;
      return <Fragment key={k}>{content}</Fragment>;
    });
  return (
    <Box className={classes.highlighted} data-testid="analysed-text">
      {parts.map((part, i) =>
        part.finding ? (
          <mark
            key={i}
            className={classes.mark}
            data-kind={part.finding.kind}
            data-active={part.index === activeIndex ? 'true' : undefined}
            title={`${FINDING_LABELS[part.finding.kind]}: ${part.finding.message}`}
            aria-label={`${FINDING_LABELS[part.finding.kind]}: ${part.shown.map((piece) => piece.text).join('')}`}
          >
            {render(part.shown)}
          </mark>
        ) : (
          <Fragment key={i}>{render(part.shown)}</Fragment>
        ),
      )}
    </Box>
  );
}
