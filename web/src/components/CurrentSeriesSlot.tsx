import { Link } from 'react-router';
import { Anchor, Paper, Skeleton, Text } from '@mantine/core';
import { useCurrentSeries } from '@/lib/useCurrentSeries';
import { useSeriesProgress } from '@/lib/useSeriesProgress';
import { CurrentSeriesCard, type CurrentSeriesCardProps } from './CurrentSeriesCard';

/**
 * The Current Series card of the layout (/, /series, book and chapter pages): the series chosen on
 * the Series page (remembered under `chronicler:current-series`), else the first one, read live
 * from the local database. Pass `series` to show given data instead (tests, stories).
 */
export function CurrentSeriesSlot({ series }: { series?: CurrentSeriesCardProps | null }) {
  if (series !== undefined) return <CurrentSeriesView series={series} />;
  return <LiveCurrentSeries />;
}

function LiveCurrentSeries() {
  const { series } = useCurrentSeries();
  const percent = useSeriesProgress(series);
  if (series === undefined) {
    return (
      <Paper withBorder radius="md" p="sm" component="section" aria-label="Current series" aria-busy="true">
        <Skeleton height={10} width="50%" />
        <Skeleton height={14} mt={8} />
        <Skeleton height={8} mt={8} />
      </Paper>
    );
  }
  return (
    <CurrentSeriesView
      series={
        series
          ? { id: series.id, title: series.title, currentBook: series.currentBook, totalBooks: series.totalBooks, percent }
          : null
      }
    />
  );
}

function CurrentSeriesView({ series }: { series: CurrentSeriesCardProps | null }) {
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
