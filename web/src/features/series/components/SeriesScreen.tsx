import '../styles';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, SimpleGrid, Stack } from '@mantine/core';
import { IconBooks, IconLock, IconPlus } from '@tabler/icons-react';
import type { Series } from '@chronicler/schema';
import { EmptyPanel } from '@/components/EmptyPanel';
import { PageHeader } from '@/components/PageHeader';
import { CARD_COLUMNS, LoadingGrid } from '@/components/SeriesListScreen';
import { getCurrentSeriesId, pickCurrentSeries, setCurrentSeriesId, useCurrentSeriesId } from '@/lib/currentSeries';
import { useSession } from '@/lib/session';
import { useSync } from '@/lib/sync';
import { useSeriesList } from '../hooks/useSeriesData';
import { limitNotice } from '../model/limits';
import { BooksPanel } from './BooksPanel';
import { ExportImportButtons } from './ExportImportButtons';
import { DeleteSeriesDialog } from './DeleteSeriesDialog';
import { EditSeriesDialog } from './EditSeriesDialog';
import { LimitNotice } from './LimitNotice';
import { NewSeriesDialog } from './NewSeriesDialog';
import { SeriesCard } from './SeriesCard';

/**
 * The Series page (001 §2): the author's series as cards with a 'New Series' dialog; the selected
 * series (query parameter id, else the current series) shows 'Books in {series}'. Reads the local
 * database, so it works offline.
 */
export function SeriesScreen() {
  const { userId } = useSync();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const list = useSeriesList();
  const [params, setParams] = useSearchParams();
  const storedId = useCurrentSeriesId();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Series | null>(null);
  const [deleting, setDeleting] = useState<Series | null>(null);

  const requested = params.get('id');
  const selected = list ? (list.find((s) => s.id === requested) ?? pickCurrentSeries(list, storedId)) : undefined;

  // Selecting through the URL makes that series the current one (the layout's card follows).
  useEffect(() => {
    if (selected && requested === selected.id && getCurrentSeriesId() !== selected.id) setCurrentSeriesId(selected.id);
  }, [selected, requested]);

  const select = (series: Series) => {
    setCurrentSeriesId(series.id);
    setParams({ id: series.id }, { replace: true });
  };

  const owned = list?.filter((s) => s.ownerId === userId).length ?? 0;
  const notice = limitNotice(plan, 'series', owned);

  const newButton = (
    <Button
      leftSection={notice.locked ? <IconLock size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
      onClick={() => setCreating(true)}
      disabled={notice.locked || list === undefined}
    >
      New Series
    </Button>
  );

  return (
    <>
      <PageHeader title="Series" subtitle="Plan your series and the books in them" actions={newButton} />
      <Stack gap="xl">
        {list !== undefined ? <LimitNotice notice={notice} testId="series-limit" inline /> : null}
        {list === undefined ? (
          <LoadingGrid label="Loading series" height={170} />
        ) : list.length === 0 ? (
          <EmptyPanel
            icon={<IconBooks size={30} stroke={1.5} />}
            title="No Series Yet"
            description="Create your first series to plan its books and chapters."
            actions={
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)} disabled={notice.locked}>
                New Series
              </Button>
            }
          />
        ) : (
          <SimpleGrid cols={CARD_COLUMNS} spacing="md" role="list" aria-label="Your series">
            {list.map((series) => (
              <div role="listitem" key={series.id}>
                <SeriesCard
                  series={series}
                  selected={selected?.id === series.id}
                  canDelete={series.ownerId === userId}
                  onSelect={() => select(series)}
                  onEdit={() => setEditing(series)}
                  onDelete={() => setDeleting(series)}
                />
              </div>
            ))}
          </SimpleGrid>
        )}

        {selected ? <BooksPanel key={selected.id} series={selected} actions={<ExportImportButtons seriesId={selected.id} />} /> : null}
      </Stack>

      <NewSeriesDialog opened={creating} onClose={() => setCreating(false)} onCreated={select} />
      <EditSeriesDialog series={editing} onClose={() => setEditing(null)} />
      <DeleteSeriesDialog
        series={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(series) => {
          if (getCurrentSeriesId() === series.id) setCurrentSeriesId(null);
          if (requested === series.id) setParams({}, { replace: true });
        }}
      />
    </>
  );
}
