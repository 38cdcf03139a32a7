import { Group, Text } from '@mantine/core';
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
      <img src="/favicon.svg" width={size} height={size} alt="" aria-hidden className={classes.icon} />
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
