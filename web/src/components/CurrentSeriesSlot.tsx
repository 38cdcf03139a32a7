import { Link } from 'react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { seriesActivity } from '@chronicler/sync-client';
import { useOptionalSync } from '@/lib/sync';
import { Anchor, Paper, Skeleton, Text } from '@mantine/core';
import { useCurrentSeries } from '@/lib/useCurrentSeries';
import { useSeriesProgress } from '@/lib/useSeriesProgress';
import { CurrentSeriesCard, type CurrentSeriesCardProps } from './CurrentSeriesCard';

/**
 * The Current Series card of the layout (/, /series, book and chapter pages): the series chosen on
 * the Series page (remembered under `chronicler:current-series`), else the first one, read live
 * from the local database. Pass `series` to show given data instead (tests, stories).
 */
export function CurrentSeriesSlot({ series, withActivity = false }: { series?: CurrentSeriesCardProps | null; withActivity?: boolean }) {
  if (series !== undefined) return <CurrentSeriesView series={series} />;
  return <LiveCurrentSeries withActivity={withActivity} />;
}

function LiveCurrentSeries({ withActivity }: { withActivity: boolean }) {
  const { series } = useCurrentSeries();
  const db = useOptionalSync()?.db ?? null;
  const seriesId = series?.id ?? null;
  const activity = useLiveQuery(async () => (db && seriesId && withActivity ? seriesActivity(db, seriesId) : undefined), [db, seriesId, withActivity]);
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
          ? { id: series.id, title: series.title, currentBook: series.currentBook, totalBooks: series.totalBooks, percent, activity }
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
