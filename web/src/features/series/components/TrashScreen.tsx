import '../styles';
import { useState } from 'react';
import { Link } from 'react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Anchor, Badge, Button, Group, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconRestore, IconTrashX } from '@tabler/icons-react';
import { RESTRUCTURE_MESSAGES, TRASH_RETENTION_DAYS, isTrashed, purgeDueAt } from '@chronicler/schema';
import { type TrashEntry, booksOfSeries, trashOfSeries } from '@chronicler/sync-client';
import { PageHeader } from '@/components/PageHeader';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { ReadOnlyNotice } from '@/components/ReadOnlyNotice';
import { RESTRUCTURE_COPY, useRestructure, withUndoToast } from '@/lib/restructure';
import { useDb } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { errorText } from '@/lib/copy/toast-core';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { useSeries } from '../hooks/useSeriesData';
import { SeriesNotFound } from './SeriesNotFound';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const day = (date: Date) => date.toLocaleDateString(undefined, { dateStyle: 'medium' });

const idOf = (entry: TrashEntry) => (entry.kind === 'books' ? entry.book.id : entry.chapter.id);
const titleOf = (entry: TrashEntry) => (entry.kind === 'books' ? entry.book.title : entry.chapter.title);

/**
 * /series/{id}/trash (docs/decisions/0014-trash-and-restructure.md): what was removed from the
 * series and when, newest first, each restorable to its place until the server purges it
 * (TRASH_RETENTION_DAYS after), or deleted for good after one more question. A chapter whose book
 * is in the Trash too is restored with its book, or moved to another book the author chooses.
 */
export function TrashScreen({ seriesId }: { seriesId: string }) {
  const db = useDb();
  const series = useSeries(seriesId);
  const entries = useLiveQuery(() => trashOfSeries(db, seriesId), [db, seriesId]);
  const books = useLiveQuery(() => booksOfSeries(db, seriesId), [db, seriesId]);
  const { canEdit } = useSeriesRole(seriesId);
  const restructure = useRestructure();
  const [forever, setForever] = useState<TrashEntry | null>(null);
  const [destination, setDestination] = useState<Record<string, string | null>>({});

  if (series === null) {
    return (
      <>
        <PageHeader title="Trash" />
        <SeriesNotFound />
      </>
    );
  }

  const restore = (entry: TrashEntry) =>
    entry.kind === 'books'
      ? withUndoToast(() => restructure.restoreBook(entry.book.id), RESTRUCTURE_COPY.bookRestored)
      : withUndoToast(() => restructure.restoreChapter(entry.chapter.id), RESTRUCTURE_COPY.chapterRestored);

  const restoreWithBook = (entry: Extract<TrashEntry, { kind: 'chapters' }>) =>
    withUndoToast(async () => {
      const book = await restructure.restoreBook(entry.chapter.bookId);
      const chapter = await restructure.restoreChapter(entry.chapter.id);
      return { undo: async () => (await chapter.undo(), await book.undo()) };
    }, RESTRUCTURE_COPY.chapterRestored);

  const moveTo = (entry: Extract<TrashEntry, { kind: 'chapters' }>, bookId: string) => {
    const title = books?.find((b) => b.id === bookId)?.title ?? 'the book';
    return withUndoToast(() => restructure.moveChapter(entry.chapter.id, bookId), RESTRUCTURE_COPY.chapterMoved(title));
  };

  const deleteForever = async () => {
    if (!forever) return;
    try {
      await restructure.deleteForever(forever.kind, idOf(forever));
      toast.success(RESTRUCTURE_COPY.deletedForever);
      setForever(null);
    } catch (error) {
      toast.error({ title: RESTRUCTURE_COPY.failed, message: errorText(error) });
    }
  };

  return (
    <>
      <PageHeader
        title="Trash"
        subtitle={series ? `${series.title} — kept for ${TRASH_RETENTION_DAYS} days, then deleted for good` : undefined}
        actions={
          <Anchor component={Link} to={`/series/${seriesId}`} size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              Back to the series
            </Group>
          </Anchor>
        }
      />
      <Stack gap="md">
        <ReadOnlyNotice seriesId={seriesId} />
        {entries === undefined ? (
          <Stack gap="sm" aria-busy="true" aria-label="Loading the Trash">
            <Skeleton height={72} radius="md" />
            <Skeleton height={72} radius="md" />
          </Stack>
        ) : entries.length === 0 ? (
          <Paper withBorder radius="md" p="xl">
            <Text c="dimmed" ta="center">
              The Trash is empty. Chapters and books you delete wait here for {TRASH_RETENTION_DAYS} days.
            </Text>
          </Paper>
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="In the Trash">
            {entries.map((entry) => {
              const inTrashedBook = entry.kind === 'chapters' && isTrashed(entry.book);
              const others = (books ?? []).filter((b) => entry.kind === 'chapters' && b.id !== entry.chapter.bookId);
              return (
                <Paper key={idOf(entry)} component="li" withBorder radius="md" p="md" aria-label={titleOf(entry)} data-testid="trash-entry">
                  <Stack gap="xs">
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                        <Badge variant="light" color={entry.kind === 'books' ? 'grape' : 'blue'} style={{ flex: 'none' }}>
                          {entry.kind === 'books' ? 'Book' : 'Chapter'}
                        </Badge>
                        <Text fw={600} truncate="end">
                          {titleOf(entry)}
                        </Text>
                      </Group>
                      <Text size="xs" c="dimmed">
                        Deleted {when(entry.trashedAt)} · deleted for good on {day(purgeDueAt(entry.trashedAt))}
                      </Text>
                    </Group>
                    <Text size="sm" c="dimmed">
                      {entry.kind === 'books'
                        ? `${entry.chapterCount} chapter${entry.chapterCount === 1 ? '' : 's'}, ${entry.wordCount.toLocaleString()} words`
                        : `${entry.chapter.wordCount.toLocaleString()} words, from ${entry.book?.title ?? 'a deleted book'}`}
                    </Text>
                    {inTrashedBook ? (
                      <Text size="sm" c="orange" role="note">
                        {RESTRUCTURE_MESSAGES.restoreIntoTrashedBook}
                      </Text>
                    ) : null}
                    <Group gap="xs" wrap="wrap">
                      {entry.kind === 'chapters' && inTrashedBook ? (
                        <>
                          <Button size="xs" leftSection={<IconRestore size={14} aria-hidden />} disabled={!canEdit} onClick={() => void restoreWithBook(entry)}>
                            Restore with its book
                          </Button>
                          <Select
                            size="xs"
                            aria-label={`Move ${entry.chapter.title} to another book`}
                            placeholder="Or move to…"
                            data={others.map((b) => ({ value: b.id, label: b.title }))}
                            value={destination[entry.chapter.id] ?? null}
                            disabled={!canEdit || others.length === 0}
                            onChange={(value) => {
                              setDestination((d) => ({ ...d, [entry.chapter.id]: value }));
                              if (value) void moveTo(entry, value);
                            }}
                            comboboxProps={{ withinPortal: true }}
                          />
                        </>
                      ) : (
                        <Button size="xs" leftSection={<IconRestore size={14} aria-hidden />} disabled={!canEdit} onClick={() => void restore(entry)}>
                          Restore
                        </Button>
                      )}
                      <Button size="xs" variant="subtle" color="red" leftSection={<IconTrashX size={14} aria-hidden />} disabled={!canEdit} onClick={() => setForever(entry)}>
                        Delete forever
                      </Button>
                    </Group>
                  </Stack>
                </Paper>
              );
            })}
          </Stack>
        )}
      </Stack>
      <ConfirmDeleteDialog
        opened={forever !== null}
        title="Delete forever?"
        message={
          forever
            ? `“${titleOf(forever)}” will be deleted for good${forever.kind === 'books' ? ', with its chapters' : ''}. This cannot be undone.`
            : ''
        }
        confirmLabel="Delete forever"
        onCancel={() => setForever(null)}
        onConfirm={deleteForever}
      />
    </>
  );
}
