import { Link } from 'react-router';
import { Anchor, Group, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBook, IconCircleCheck, IconMapPin, IconPencil, IconUser } from '@tabler/icons-react';
import { lastSavedText } from '@chronicler/schema';
import type { ActivityItem, ActivityKind } from '@chronicler/sync-client';

export interface CurrentSeriesCardProps {
  /** When given, the title links to the series on the Series page. */
  id?: string;
  title: string;
  currentBook: number;
  totalBooks: number;
  /** Series progress, 0–100: the work done (`seriesProgress`, docs/spec-differences.md), not the current book. */
  percent: number;
  /** Recent activity (shown on the dashboard only, spec 000 §2). */
  activity?: ActivityItem[] | undefined;
}

const ACTIVITY_LOOK: Record<ActivityKind, { icon: typeof IconBook; color: string }> = {
  'chapter-written': { icon: IconPencil, color: 'blue' },
  'chapter-completed': { icon: IconCircleCheck, color: 'teal' },
  'book-completed': { icon: IconBook, color: 'grape' },
  'character-added': { icon: IconUser, color: 'orange' },
  'location-added': { icon: IconMapPin, color: 'green' },
};

function RecentActivity({ items }: { items: ActivityItem[] }) {
  const now = new Date();
  return (
    <div data-testid="recent-activity">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" lts={0.5} mt="sm">
        Recent Activity
      </Text>
      {items.length === 0 ? (
        <Text size="xs" c="dimmed" mt={4}>
          Nothing yet: write a chapter or add a character.
        </Text>
      ) : (
        <Stack gap={6} mt={4} role="list" aria-label="Recent activity">
          {items.map((item) => {
            const look = ACTIVITY_LOOK[item.kind];
            return (
              <Group key={item.key} gap={6} wrap="nowrap" align="flex-start" role="listitem" data-kind={item.kind}>
                <ThemeIcon size={20} radius="xl" variant="light" color={look.color} aria-hidden>
                  <look.icon size={12} aria-hidden />
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  <Text size="xs" lineClamp={2}>
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
      )}
    </div>
  );
}

/** The Current Series card of spec 000 §2 Layout: title, "Book X of Y" and percent complete. */
export function CurrentSeriesCard({ id, title, currentBook, totalBooks, percent, activity }: CurrentSeriesCardProps) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <Paper withBorder radius="md" p="sm" aria-label="Current series" component="section" data-testid="current-series">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" lts={0.5}>
        Current Series
      </Text>
      {id ? (
        <Anchor component={Link} to={`/series?id=${encodeURIComponent(id)}`} fw={700} mt={2} lineClamp={2} c="inherit" display="block">
          {title}
        </Anchor>
      ) : (
        <Text fw={700} mt={2} lineClamp={2}>
          {title}
        </Text>
      )}
      <Text size="sm" c="dimmed" mt={2}>
        Book {currentBook} of {totalBooks}
      </Text>
      <Progress value={value} size="sm" mt="xs" aria-label={`Series progress ${value}%`} />
      <Text size="xs" c="dimmed" mt={4}>
        {value}% complete
      </Text>
      {activity ? <RecentActivity items={activity} /> : null}
    </Paper>
  );
}
