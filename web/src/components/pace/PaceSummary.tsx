import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { PaceProjection } from '@chronicler/schema';
import { dayLabel, finishCopy, neededCopy, statusCopy, wordsCopy } from './paceCopy';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** The status as a badge: "On track", "Behind by 3,200 words", … */
export function PaceStatusBadge({ projection }: { projection: PaceProjection }) {
  const { label, color } = statusCopy(projection);
  return (
    <Badge color={color} variant="light" data-testid="pace-status">
      {label}
    </Badge>
  );
}

/**
 * A book's projection (docs/decisions/0018-pace-predictions.md): words to go, words per writing day
 * needed, the finish at the recent pace and the status. `compact`: one line for a book card.
 */
export function PaceSummary({ projection, compact = false }: { projection: PaceProjection; compact?: boolean }) {
  if (compact) {
    return (
      <Group gap="xs" wrap="wrap" data-testid="pace-summary">
        <PaceStatusBadge projection={projection} />
        <Text size="xs" c="dimmed">
          {wordsCopy(projection.wordsToGo)} to go
          {projection.projectedFinish && projection.status !== 'reached' ? ` · finish ${dayLabel(projection.projectedFinish)}` : ''}
        </Text>
      </Group>
    );
  }
  return (
    <Stack gap="sm" data-testid="pace-summary">
      <Group gap="xs">
        <PaceStatusBadge projection={projection} />
        {projection.deadline ? (
          <Text size="sm" c="dimmed">
            Deadline {dayLabel(projection.deadline)}
          </Text>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure label="Words to go" value={wordsCopy(projection.wordsToGo)} testId="pace-to-go" />
        <Figure label="Needed per writing day" value={neededCopy(projection)} testId="pace-needed" />
        <Figure label="Recent pace" value={`${wordsCopy(projection.pacePerWritingDay)} a writing day`} testId="pace-rate" />
        <Figure label="Projected finish" value={finishCopy(projection)} testId="pace-finish" />
      </SimpleGrid>
    </Stack>
  );
}
