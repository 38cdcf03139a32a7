import { Group, Progress, Text, type MantineSpacing } from '@mantine/core';

interface ProgressLineProps {
  /** The series' or book's title: the bar is named '{title} progress {percent}%'. */
  title: string;
  percent: number;
  mt?: MantineSpacing;
}

/** 'Progress' and the percent over its bar (001 §2), for a series or a book. */
export function ProgressLine({ title, percent, mt }: ProgressLineProps) {
  return (
    <>
      <Group justify="space-between" mt={mt} gap="xs">
        <Text size="xs" c="dimmed">
          Progress
        </Text>
        <Text size="xs" fw={600}>
          {percent}%
        </Text>
      </Group>
      <Progress value={percent} size="sm" mt={4} aria-label={`${title} progress ${percent}%`} />
    </>
  );
}
