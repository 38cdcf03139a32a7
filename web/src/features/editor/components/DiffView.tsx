/**
 * Two versions side by side (stacked on small screens): unchanged paragraphs dimmed, long unchanged
 * runs folded, and inside changed paragraphs the removed words struck through on the left and the
 * added words underlined on the right (colour is never the only cue; screen readers hear
 * "removed" / "added" from CSS-generated text, which stays out of copied text). Emphasis shows as
 * the author reads it, in <em> and <strong>, its markers left out (`styledPieces`); the text is
 * always React text, never HTML.
 */
import { Fragment, type ReactNode, useMemo } from 'react';
import { Text } from '@mantine/core';
import { type StyledPiece, styledPieces } from '@chronicler/schema';
import { type DiffPart, compareTexts } from '../model/text-diff';
import classes from '../editor.module.css';

export interface DiffViewProps {
  left: string;
  right: string;
  leftLabel: string;
  rightLabel: string;
}

function Emphasised({ piece }: { piece: StyledPiece<unknown> }) {
  let content: ReactNode = piece.text;
  if (piece.italic) content = <em>{content}</em>;
  if (piece.bold) content = <strong>{content}</strong>;
  return content;
}

function Parts({ parts }: { parts: DiffPart[] }) {
  const pieces = useMemo(() => styledPieces(parts), [parts]);
  if (parts.length === 0) return <Text span c="dimmed" fs="italic" size="sm">(nothing)</Text>;
  return (
    <>
      {pieces.map((piece, i) =>
        piece.kind === 'same' ? (
          <Emphasised key={i} piece={piece} />
        ) : piece.kind === 'removed' ? (
          <del key={i} className={classes.removed}>
            <Emphasised piece={piece} />
          </del>
        ) : (
          <ins key={i} className={classes.added}>
            <Emphasised piece={piece} />
          </ins>
        ),
      )}
    </>
  );
}

function SameText({ text }: { text: string }) {
  return (
    <>
      {styledPieces([{ text, kind: 'same' }]).map((piece, i) => (
        <Emphasised key={i} piece={piece} />
      ))}
    </>
  );
}

export function DiffView({ left, right, leftLabel, rightLabel }: DiffViewProps) {
  const comparison = useMemo(() => compareTexts(left, right), [left, right]);
  return (
    <div>
      <Text size="sm" c="dimmed" mb="xs" aria-live="polite">
        {comparison.identical
          ? 'The two versions are identical.'
          : comparison.spacingOnly
            ? 'The two versions read the same: they differ only in spaces at the ends of lines.'
            : comparison.changes === 1
            ? '1 passage differs.'
            : `${comparison.changes} passages differ.`}
      </Text>
      <div className={classes.diff} data-testid="diff-view">
        <div className={classes.diffHead} data-side="left">
          {leftLabel}
        </div>
        <div className={classes.diffHead} data-side="right">
          {rightLabel}
        </div>
        {comparison.rows.map((row, i) => {
          if (row.type === 'fold') {
            return (
              <div key={i} className={classes.diffFold}>
                {row.count === 1 ? '1 unchanged paragraph' : `${row.count} unchanged paragraphs`}
              </div>
            );
          }
          if (row.type === 'same') {
            // Blank separator lines at the edges of an unchanged run are not worth a line of their own.
            const text = row.paragraphs.join('\n').replace(/^\s*\n/, '').replace(/\n\s*$/, '');
            if (text.trim() === '') return null;
            return (
              <Fragment key={i}>
                <div className={`${classes.diffCell} ${classes.diffSame}`} data-side="left">
                  <SameText text={text} />
                </div>
                <div className={`${classes.diffCell} ${classes.diffSame}`} data-side="right">
                  <SameText text={text} />
                </div>
              </Fragment>
            );
          }
          return (
            <Fragment key={i}>
              <div className={classes.diffCell} data-side="left" data-label={leftLabel} data-testid="diff-left">
                <Parts parts={row.left} />
              </div>
              <div className={classes.diffCell} data-side="right" data-label={rightLabel} data-testid="diff-right">
                <Parts parts={row.right} />
              </div>
            </Fragment>
          );
        })}
      </div>
    </div>
  );
}
