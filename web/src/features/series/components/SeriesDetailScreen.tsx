import '../styles';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { roleAllows } from '@chronicler/schema';
import { useSeriesProgress } from '@/lib/useSeriesProgress';
import { PageHeader } from '@/components/PageHeader';
import { PictureImage } from '@/components/pictures/PictureImage';
import classes from './SeriesCard.module.css';
import { ReadOnlyNotice } from '@/components/ReadOnlyNotice';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { getCurrentSeriesId, setCurrentSeriesId } from '@/lib/currentSeries';
import { useSeries } from '../hooks/useSeriesData';
import { BooksPanel } from './BooksPanel';
import { ExportImportButtons } from './ExportImportButtons';
import { EditSeriesDialog } from './EditSeriesDialog';
import { SeriesNotFound } from './SeriesNotFound';
import { ProgressLine } from './ProgressLine';
import { SeriesPacePanel } from './SeriesPacePanel';

function BackLink() {
  return (
    <Anchor component={Link} to="/series" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        All series
      </Group>
    </Anchor>
  );
}

/** /series/{id} (001 §2): one series with its books (the same book cards as the Series page). */
export function SeriesDetailScreen({ seriesId }: { seriesId: string }) {
  const series = useSeries(seriesId);
  // A shared series: renaming it needs an admin or the owner; a viewer is told why it is read-only.
  const { role } = useSeriesRole(seriesId);
  const mayManage = role === null || roleAllows(role, 'manage');
  const percent = useSeriesProgress(series);
  const [editing, setEditing] = useState(false);

  // Opening a series makes it the current one.
  useEffect(() => {
    if (series && getCurrentSeriesId() !== series.id) setCurrentSeriesId(series.id);
  }, [series]);

  if (series === undefined) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading series">
        <Skeleton height={36} width="40%" />
        <Skeleton height={16} width="25%" />
        <Skeleton height={240} radius="md" mt="lg" />
      </Stack>
    );
  }
  if (series === null) {
    return (
      <>
        <PageHeader title="Series" actions={<BackLink />} />
        <SeriesNotFound />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={series.title}
        subtitle={`Book ${series.currentBook} of ${series.totalBooks}`}
        actions={
          <>
            <BackLink />
            <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(true)} disabled={!mayManage}>
              Edit Series
            </Button>
            <ExportImportButtons seriesId={series.id} />
            <Button component={Link} to={`/series/${series.id}/trash`} variant="default" leftSection={<IconTrash size={16} aria-hidden />}>
              Trash
            </Button>
          </>
        }
      />
      <Stack gap="xl">
        <ReadOnlyNotice seriesId={series.id} />
        <Paper withBorder radius="md" p="md">
          <Group align="flex-start" gap="md" wrap="nowrap">
            {series.coverImage ? (
              <PictureImage value={series.coverImage} seriesId={series.id} variant="display" alt={`Cover of ${series.title}`} className={classes.detailCover} />
            ) : null}
            <Stack gap="sm" style={{ flex: 1 }} miw={0}>
              {series.description ? <Text size="sm">{series.description}</Text> : <Text size="sm" c="dimmed" fs="italic">No description</Text>}
              <ProgressLine title={series.title} percent={percent} />
            </Stack>
          </Group>
        </Paper>
        <BooksPanel series={series} />
        <SeriesPacePanel series={series} />
      </Stack>
      <EditSeriesDialog series={editing ? series : null} onClose={() => setEditing(false)} />
    </>
  );
}
