import { Group, Progress, Text, type MantineSpacing } from '@mantine/core';
import { seriesProgress, type Series } from '@chronicler/schema';

/** 'Progress' and the series' percent over its bar (001 §2). */
export function SeriesProgress({ series, mt }: { series: Series; mt: MantineSpacing }) {
  const percent = seriesProgress(series);
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
      <Progress value={percent} size="sm" mt={4} aria-label={`${series.title} progress ${percent}%`} />
    </>
  );
}
