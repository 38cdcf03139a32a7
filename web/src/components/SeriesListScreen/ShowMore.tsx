import { Button, Group, type MantineRadius } from '@mantine/core';

interface ShowMoreProps {
  /** How many are not shown yet; nothing is rendered at 0. */
  hidden: number;
  onClick: () => void;
  radius?: MantineRadius;
}

/** 'Show more (N more)' under a long list (large lists stay fast). */
export function ShowMore({ hidden, onClick, radius }: ShowMoreProps) {
  if (hidden <= 0) return null;
  return (
    <Group justify="center">
      <Button variant="default" radius={radius} onClick={onClick}>
        Show more ({hidden} more)
      </Button>
    </Group>
  );
}
