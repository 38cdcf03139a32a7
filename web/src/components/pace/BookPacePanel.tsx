import { Suspense, useState } from 'react';
import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconTarget } from '@tabler/icons-react';
import type { Book, Series } from '@chronicler/schema';
import { FeatureGate } from '@/components/FeatureGate';
import { ScreenErrorBoundary } from '@/components/ScreenErrorBoundary';
import { useSync } from '@/lib/sync';
import { useSeriesPace } from '@/lib/usePace';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { LazyBookGoalDialog } from './lazyGoalDialog';
import { PaceSummary } from './PaceSummary';

/**
 * The dashboard's pace of the current book (docs/decisions/0018-pace-predictions.md): its
 * projection, or an invitation to set a goal; locked with the upgrade prompt on a plan without
 * pace predictions (the series owner's plan governs a shared series, which the server judges).
 */
export default function BookPacePanel({ series, book }: { series: Series; book: Book }) {
  const { userId } = useSync();
  const owned = series.ownerId === userId;
  const body = (
    <ScreenErrorBoundary title="The pace could not be read">
      <PaceBody series={series} book={book} owned={owned} />
    </ScreenErrorBoundary>
  );
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="pace-heading" data-testid="book-pace-panel">
      <Title order={2} fz="md" id="pace-heading" mb="sm">
        Pace of {book.title}
      </Title>
      {owned ? <FeatureGate feature="pacePredictions">{body}</FeatureGate> : body}
    </Paper>
  );
}

function PaceBody({ series, book, owned }: { series: Series; book: Book; owned: boolean }) {
  const paces = useSeriesPace(series.id);
  const { canEdit } = useSeriesRole(series.id);
  const [editing, setEditing] = useState(false);
  const pace = paces?.find((p) => p.book.id === book.id);
  if (paces === undefined) return <Skeleton height={96} radius="md" aria-label="Loading the pace" />;
  const current = pace?.book ?? book;
  return (
    <Stack gap="sm">
      {pace?.projection ? (
        <PaceSummary projection={pace.projection} />
      ) : (
        <Text size="sm" c="dimmed">
          No goal yet. Give {book.title} a target word count and a deadline to see when it will be finished at your recent pace.
        </Text>
      )}
      <Group>
        <Button size="compact-sm" variant="light" leftSection={<IconTarget size={14} aria-hidden />} onClick={() => setEditing(true)} disabled={!canEdit}>
          {pace?.projection ? 'Edit goal' : 'Set a goal'}
        </Button>
      </Group>
      {editing ? (
        <Suspense fallback={null}>
          <LazyBookGoalDialog book={current} words={pace?.words ?? 0} owned={owned} onClose={() => setEditing(false)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
