import { Suspense, useState } from 'react';
import { Anchor, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { Book, Series } from '@chronicler/schema';
import { FeatureGate } from '@/components/FeatureGate';
import { ScreenErrorBoundary } from '@/components/ScreenErrorBoundary';
import { PaceStatusBadge, finishCopy, neededCopy, wordsCopy } from '@/components/pace';
import { LazyBookGoalDialog } from '@/components/pace/lazyGoalDialog';
import { useSync } from '@/lib/sync';
import { type BookPace, useSeriesPace } from '@/lib/usePace';
import { useSeriesRole } from '@/lib/useSeriesRole';

/**
 * Every book's projection in one table (docs/decisions/0018-pace-predictions.md): a five-book
 * series a month before a deadline, read at a glance. Scrolls sideways on a phone; a book's title
 * opens its goal. Locked with the upgrade prompt on a plan without pace predictions.
 */
export function SeriesPacePanel({ series }: { series: Series }) {
  const { userId } = useSync();
  const owned = series.ownerId === userId;
  const body = (
    <ScreenErrorBoundary title="The pace could not be read">
      <PaceTable series={series} owned={owned} />
    </ScreenErrorBoundary>
  );
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="series-pace-heading" data-testid="series-pace">
      <Title order={2} id="series-pace-heading" fz={{ base: 20, sm: 24 }} mb="sm">
        Pace
      </Title>
      {owned ? <FeatureGate feature="pacePredictions">{body}</FeatureGate> : body}
    </Paper>
  );
}

function PaceTable({ series, owned }: { series: Series; owned: boolean }) {
  const paces = useSeriesPace(series.id);
  const { canEdit } = useSeriesRole(series.id);
  const [editing, setEditing] = useState<BookPace | null>(null);
  if (paces === undefined) return <Skeleton height={120} radius="md" aria-label="Loading the pace" />;
  if (paces.length === 0) return <Text size="sm" c="dimmed">No books yet: add one, then give it a goal.</Text>;
  const open = (pace: BookPace) => (canEdit ? setEditing(pace) : undefined);
  const title = (book: Book, pace: BookPace) =>
    canEdit ? (
      <Anchor component="button" type="button" onClick={() => open(pace)} aria-label={`Goal for ${book.title}`} ta="left">
        {book.title}
      </Anchor>
    ) : (
      book.title
    );
  return (
    <Stack gap="xs">
      {paces.every((p) => p.projection === null) ? (
        <Text size="sm" c="dimmed">
          No book has a goal yet. Choose a book to give it a target word count and a deadline.
        </Text>
      ) : null}
      <Table.ScrollContainer minWidth={640}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-label={`Pace of the books of ${series.title}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Book</Table.Th>
              <Table.Th scope="col">Words</Table.Th>
              <Table.Th scope="col">To go</Table.Th>
              <Table.Th scope="col">Per writing day</Table.Th>
              <Table.Th scope="col">Projected finish</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {paces.map((pace) => {
              const p = pace.projection;
              return (
                <Table.Tr key={pace.book.id} data-testid="series-pace-row">
                  <Table.Th scope="row" fw={600}>
                    {title(pace.book, pace)}
                  </Table.Th>
                  <Table.Td>{pace.words.toLocaleString('en-US')}{p ? ` of ${p.targetWords.toLocaleString('en-US')}` : ''}</Table.Td>
                  <Table.Td>{p ? wordsCopy(p.wordsToGo) : '—'}</Table.Td>
                  <Table.Td>{p ? neededCopy(p) : '—'}</Table.Td>
                  <Table.Td>{p ? finishCopy(p) : '—'}</Table.Td>
                  <Table.Td>{p ? <PaceStatusBadge projection={p} /> : <Text size="sm" c="dimmed">No goal</Text>}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {editing ? (
        <Suspense fallback={null}>
          <LazyBookGoalDialog book={editing.book} words={editing.words} owned={owned} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
