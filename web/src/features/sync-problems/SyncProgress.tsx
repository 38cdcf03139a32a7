/**
 * Long work shows its progress. While the first sync on a device brings the author's
 * writing in (page after page of changes), a panel says what has arrived so far — series, chapters,
 * words — and links each series that is already here, so the author can open it at once. While a
 * large offline backlog is being sent, it counts the changes sent against those waiting.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Group, Paper, Progress, Text } from '@mantine/core';
import { IconCloudDownload, IconCloudUpload } from '@tabler/icons-react';
import { useLiveQuery } from 'dexie-react-hooks';
import { chaptersOfSeries, seriesList } from '@chronicler/sync-client';
import { useOptionalSync, useSyncEvents, useSyncStatus } from '@/lib/sync';

/** A backlog this large gets a progress panel; a few changes go by unnoticed. */
export const BACKLOG_SHOWN_FROM = 25;

const count = (n: number) => n.toLocaleString('en-US');

export function SyncProgress() {
  const sync = useOptionalSync();
  const [arriving, setArriving] = useState(false);
  const [backlogPeak, setBacklogPeak] = useState(0);
  const pending = useSyncStatus((s) => s.pendingCount);

  useSyncEvents((event) => {
    if (event.type === 'pulled') setArriving(event.hasMore);
  });
  if (pending > backlogPeak) setBacklogPeak(pending);
  else if (pending === 0 && backlogPeak !== 0) setBacklogPeak(0);

  const db = sync?.db ?? null;
  const arrived = useLiveQuery(async () => {
    if (!db || !arriving) return null;
    const series = await seriesList(db);
    let chapters = 0;
    let words = 0;
    for (const s of series) {
      const rows = await chaptersOfSeries(db, s.id);
      chapters += rows.length;
      for (const c of rows) words += c.wordCount;
    }
    return { series, chapters, words };
  }, [db, arriving]);

  if (arriving && arrived) {
    return (
      <Paper withBorder radius="md" p="sm" mb="md" role="status" aria-label="Bringing your writing to this device" data-testid="sync-arriving">
        <Group gap="xs" wrap="nowrap">
          <IconCloudDownload size={18} aria-hidden style={{ color: 'var(--mantine-primary-color-filled)', flex: 'none' }} />
          <Text size="sm" fw={600}>
            Bringing your writing to this device…
          </Text>
        </Group>
        <Progress value={100} animated striped size="xs" mt={6} aria-hidden />
        <Text size="sm" c="dimmed" mt={6} data-testid="sync-arrived-counts">
          {arrived.series.length === 1 ? '1 series' : `${count(arrived.series.length)} series`}, {arrived.chapters === 1 ? '1 chapter' : `${count(arrived.chapters)} chapters`},{' '}
          {count(arrived.words)} words so far
        </Text>
        {arrived.series.length > 0 ? (
          <Group gap="sm" mt={4}>
            <Text size="sm">Open now:</Text>
            {arrived.series.slice(0, 6).map((s) => (
              <Anchor key={s.id} component={Link} to={`/series?id=${encodeURIComponent(s.id)}`} size="sm" fw={600}>
                {s.title}
              </Anchor>
            ))}
          </Group>
        ) : null}
      </Paper>
    );
  }

  if (backlogPeak >= BACKLOG_SHOWN_FROM && pending > 0) {
    const sent = backlogPeak - pending;
    return (
      <Paper withBorder radius="md" p="sm" mb="md" role="status" aria-label="Sending your changes" data-testid="sync-sending">
        <Group gap="xs" wrap="nowrap">
          <IconCloudUpload size={18} aria-hidden style={{ color: 'var(--mantine-primary-color-filled)', flex: 'none' }} />
          <Text size="sm" fw={600}>
            Sending the changes made on this device: {count(sent)} of {count(backlogPeak)} sent
          </Text>
        </Group>
        <Progress value={(sent / backlogPeak) * 100} size="xs" mt={6} aria-hidden />
      </Paper>
    );
  }
  return null;
}
