import { Group, Text } from '@mantine/core';
import { brandMarkClasses as classes } from './brandMarkClasses';

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
      {/* The book on the theme's brand gradient: the mark follows the theme, the favicon keeps its own colours. */}
      <span className={classes.icon} style={{ width: size, height: size }} aria-hidden data-testid="brand-icon" />
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
