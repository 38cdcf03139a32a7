import { Link } from 'react-router';
import { Anchor, Paper, Text } from '@mantine/core';
import { CurrentSeriesCard, type CurrentSeriesCardProps } from './CurrentSeriesCard';

/**
 * SLOT: the Current Series card of the layout (/, /series, book and chapter pages).
 * `series` is null until the series data layer (Dexie + sync) provides the current series.
 */
export function CurrentSeriesSlot({ series }: { series: CurrentSeriesCardProps | null }) {
  if (series) return <CurrentSeriesCard {...series} />;
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label="Current series" data-testid="current-series-empty">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" lts={0.5}>
        Current Series
      </Text>
      <Text size="sm" mt={4}>
        No active series selected
      </Text>
      <Anchor component={Link} to="/series" size="sm" fw={600} mt={4} display="inline-block">
        Create New Series
      </Anchor>
    </Paper>
  );
}
