import { useLiveQuery } from 'dexie-react-hooks';
import { Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBook, IconCircleCheck, IconMapPin, IconPencil, IconUser } from '@tabler/icons-react';
import { lastSavedText } from '@chronicler/schema';
import { type ActivityItem, type ActivityKind, seriesActivity } from '@chronicler/sync-client';
import { useOptionalSync } from '@/lib/sync';

const ACTIVITY_LOOK: Record<ActivityKind, { icon: typeof IconBook; color: string }> = {
  'chapter-written': { icon: IconPencil, color: 'blue' },
  'chapter-completed': { icon: IconCircleCheck, color: 'teal' },
  'book-completed': { icon: IconBook, color: 'grape' },
  'character-added': { icon: IconUser, color: 'orange' },
  'location-added': { icon: IconMapPin, color: 'green' },
};

/** The series' recent activity as a list: icon, description and how long ago. */
export function RecentActivityList({ items, now = new Date() }: { items: ActivityItem[]; now?: Date }) {
  if (items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing yet: write a chapter or add a character.
      </Text>
    );
  }
  return (
    <Stack gap={8} role="list" aria-label="Recent activity">
      {items.map((item) => {
        const look = ACTIVITY_LOOK[item.kind];
        return (
          <Group key={item.key} gap={8} wrap="nowrap" align="flex-start" role="listitem" data-kind={item.kind}>
            <ThemeIcon size={22} radius="xl" variant="light" color={look.color} aria-hidden>
              <look.icon size={13} aria-hidden />
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Text size="sm" lineClamp={2}>
                {item.description}
              </Text>
              <Text size="xs" c="dimmed">
                {lastSavedText(new Date(item.at), now)}
              </Text>
            </div>
          </Group>
        );
      })}
    </Stack>
  );
}

/**
 * The current series' Recent Activity on the dashboard, live from the local database. The spec
 * puts it inside the sidebar's Current Series card (000 §2); there it hid the sidebar's links on a
 * laptop screen, so it is a panel of the dashboard (docs/spec-differences.md).
 */
export function RecentActivityPanel({ seriesId }: { seriesId: string | null }) {
  const db = useOptionalSync()?.db ?? null;
  const activity = useLiveQuery(async () => (db && seriesId ? seriesActivity(db, seriesId) : []), [db, seriesId]);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="recent-activity-title" data-testid="recent-activity">
      <Title order={2} size="h4" id="recent-activity-title" mb="sm">
        Recent Activity
      </Title>
      {activity === undefined ? (
        <Stack gap={8} aria-busy="true">
          <Skeleton height={14} />
          <Skeleton height={14} width="70%" />
        </Stack>
      ) : seriesId === null ? (
        <Text size="sm" c="dimmed">
          No active series selected
        </Text>
      ) : (
        <RecentActivityList items={activity} />
      )}
    </Paper>
  );
}
