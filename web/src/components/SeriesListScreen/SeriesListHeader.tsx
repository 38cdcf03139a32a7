import type { ReactNode } from 'react';
import { Group } from '@mantine/core';
import { PageHeader } from '../PageHeader';
import { OfflineBadge } from './OfflineNote';
import { SeriesPicker, type SeriesPickerProps } from './SeriesPicker';

export interface SeriesListHeaderProps {
  title: string;
  subtitle: string;
  /** An 'Offline' badge beside the subtitle while offline (pages that show no OfflineNote). */
  offlineBadge?: boolean;
  picker: SeriesPickerProps;
  /** Controls after the series picker: a search box, the page's New button. */
  children?: ReactNode;
}

/** The heading of a series-scoped page: title, subtitle, the series picker and the page's actions. */
export function SeriesListHeader({ title, subtitle, offlineBadge = false, picker, children }: SeriesListHeaderProps) {
  return (
    <PageHeader
      title={title}
      subtitle={
        offlineBadge ? (
          <Group gap="xs" component="span">
            <span>{subtitle}</span>
            <OfflineBadge />
          </Group>
        ) : (
          subtitle
        )
      }
      actions={
        <>
          <SeriesPicker {...picker} />
          {children}
        </>
      }
    />
  );
}
