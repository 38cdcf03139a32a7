import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { IconDownload, IconFileImport } from '@tabler/icons-react';
import { useSeriesRole } from '@/lib/useSeriesRole';

/**
 * The way to a series' Export and Import screens, where its books are listed (the series list and
 * the series page). Import writes chapters: shown to those who may edit the series.
 */
export function ExportImportButtons({ seriesId }: { seriesId: string }) {
  const { canEdit: canImport } = useSeriesRole(seriesId);
  return (
    <>
      <Button component={Link} to={`/series/${seriesId}/export`} variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
        Export
      </Button>
      {canImport ? (
        <Button component={Link} to={`/series/${seriesId}/import`} variant="default" leftSection={<IconFileImport size={16} aria-hidden />}>
          Import
        </Button>
      ) : null}
    </>
  );
}
