import { Fragment, useMemo } from 'react';
import { Box } from '@mantine/core';
import { FINDING_LABELS, type Finding } from '@chronicler/companion';
import classes from '../companion.module.css';

/**
 * The analysed text with each finding marked where it is (overlapping findings: the first wins
 * that stretch). Marks carry their label for screen readers and a tooltip.
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
    return out;
  }, [text, findings]);
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
            aria-label={`${FINDING_LABELS[part.finding.kind]}: ${part.text}`}
          >
            {part.text}
          </mark>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </Box>
  );
}
