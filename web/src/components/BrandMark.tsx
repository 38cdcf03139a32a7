import { Group, Text } from '@mantine/core';
// A data URL inside the shell's code: the mark is on the first screen, and as a file of its own it was
// one more request before the first screen's largest paint on a slow network (issue 16).
import bookIcon from '@/assets/brand-book.svg?inline';
import classes from './BrandMark.module.css';

interface BrandMarkProps {
  /** Icon size in px. */
  size?: number;
  /** Icon only. */
  compact?: boolean;
  /** Name drawn in the on-brand colour (for the gradient hero panel). */
  light?: boolean;
}

/** The product's mark: the open book of the app icon and the name "Chronicler". */
export function BrandMark({ size = 34, compact = false, light = false }: BrandMarkProps) {
  return (
    <Group gap={Math.round(size / 3.4)} wrap="nowrap" className={classes.brand}>
      {/* The book on the theme's brand gradient: the mark follows the theme (issue 15), the favicon keeps its own colours. */}
      <span className={classes.icon} style={{ width: size, height: size }} aria-hidden data-testid="brand-icon">
        <img src={bookIcon} width={size} height={size} alt="" />
      </span>
      {compact ? null : (
        <Text
          component="span"
          className={classes.name}
          data-light={light || undefined}
          style={{ fontSize: Math.round(size * 0.62) }}
        >
          Chronicler
        </Text>
      )}
    </Group>
  );
}
