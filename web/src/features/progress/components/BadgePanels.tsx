import { Link } from 'react-router';
import { Anchor, Badge, Group, Paper, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { DeferredTooltip } from '@/lib/first-load';
import { IconTrophy } from '@tabler/icons-react';
import { type Achievement, isNewAchievement, progressByType } from '@chronicler/schema';
import type { EarnedBadge } from '../model/figures';
import { AchievementIcon } from './AchievementIcon';

/** 000 §2, §9: Your Badges 6, Recent Achievements 3 full + 4 small, My Badges 8, Badge Progression 5 types. */
export const LIMITS = { yourBadges: 6, recentFull: 3, recentSmall: 4, myBadges: 8, progressionTypes: 5 } as const;

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium' });
}

function Panel({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} fz="md" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function SmallBadge({ achievement, dimmed = false }: { achievement: Achievement; dimmed?: boolean }) {
  return (
    <DeferredTooltip label={`${achievement.name}${dimmed ? ' (locked)' : ''}`}>
      <ThemeIcon
        variant={dimmed ? 'default' : 'light'}
        color={dimmed ? 'gray' : 'yellow'}
        size={34}
        radius="xl"
        style={dimmed ? { opacity: 0.4 } : undefined}
        role="img"
        aria-label={`${achievement.name}${dimmed ? ' (locked)' : ''}`}
        data-locked={dimmed}
      >
        <AchievementIcon achievement={achievement} />
      </ThemeIcon>
    </DeferredTooltip>
  );
}

function Overflow({ count }: { count: number }) {
  return count > 0 ? (
    <Badge variant="light" color="gray" size="lg" data-testid="badge-overflow">
      +{count}
    </Badge>
  ) : null;
}

function NoBadgesYet() {
  return (
    <Text size="sm" c="dimmed">
      No badges yet. Keep writing and creating to earn your first.
    </Text>
  );
}

export function YourBadges({ earned }: { earned: EarnedBadge[] }) {
  return (
    <Panel title="Your Badges" testId="your-badges">
      {earned.length === 0 ? (
        <NoBadgesYet />
      ) : (
        <Group gap="xs">
          {earned.slice(0, LIMITS.yourBadges).map((b) => (
            <SmallBadge key={b.row.id} achievement={b.achievement} />
          ))}
        </Group>
      )}
    </Panel>
  );
}

export function RecentAchievements({ earned, now }: { earned: EarnedBadge[]; now: Date }) {
  const full = earned.slice(0, LIMITS.recentFull);
  const small = earned.slice(LIMITS.recentFull, LIMITS.recentFull + LIMITS.recentSmall);
  const rest = earned.length - full.length - small.length;
  return (
    <Panel title="Recent Achievements" testId="recent-achievements">
      {earned.length === 0 ? <NoBadgesYet /> : null}
      <Stack gap="xs">
        {full.map(({ row, achievement }) => (
          <Group key={row.id} wrap="nowrap" gap="sm" data-testid="recent-achievement">
            <ThemeIcon variant="light" color="yellow" size={38} radius="xl">
              <AchievementIcon achievement={achievement} />
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Group gap={6}>
                <Text fw={600} size="sm">
                  {achievement.name}
                </Text>
                {isNewAchievement(row.earnedAt, now) ? (
                  <>
                    <Badge size="xs" color="green" data-testid="new-tag">
                      NEW
                    </Badge>
                    {/* A fresh milestone is worth sharing: the card is drawn on the Achievements page. */}
                    <Anchor component={Link} to={`/achievements?tab=earned&share=${encodeURIComponent(achievement.id)}`} size="xs" aria-label={`Share ${achievement.name}`}>
                      Share
                    </Anchor>
                  </>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed" truncate="end">
                {achievement.description}
              </Text>
            </div>
          </Group>
        ))}
      </Stack>
      {small.length > 0 ? (
        <Group gap="xs" mt="sm">
          {small.map((b) => (
            <SmallBadge key={b.row.id} achievement={b.achievement} />
          ))}
          <Overflow count={rest} />
        </Group>
      ) : null}
      <Group justify="space-between" mt="sm">
        <Anchor component={Link} to="/achievements?tab=available" size="sm">
          View Available Achievements
        </Anchor>
        <Anchor component={Link} to="/achievements" size="sm">
          View All Achievements
        </Anchor>
      </Group>
    </Panel>
  );
}

/** One type's earned/total with its bar (Badge Progression and the Achievements category grid). */
export function TypeProgress({ category, earned, total }: { category: string; earned: number; total: number }) {
  return (
    <>
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {category}
        </Text>
        <Text size="xs" c="dimmed">
          {earned}/{total}
        </Text>
      </Group>
      <Progress value={(earned / total) * 100} size="sm" mt={4} aria-label={`${category} ${earned} of ${total}`} />
    </>
  );
}

export function BadgeProgression({ catalogue, earnedIds }: { catalogue: readonly Achievement[]; earnedIds: ReadonlySet<string> }) {
  const types = progressByType(catalogue, earnedIds).slice(0, LIMITS.progressionTypes);
  return (
    <Panel title="Badge Progression" testId="badge-progression">
      <Stack gap="sm">
        {types.map((t) => (
          <div key={t.type} data-testid={`progression-${t.type}`}>
            <TypeProgress {...t} />
            <Group gap={4} mt={6}>
              {catalogue
                .filter((a) => a.type === t.type)
                .slice(0, 6)
                .map((a) => (
                  <SmallBadge key={a.id} achievement={a} dimmed={!earnedIds.has(a.id)} />
                ))}
            </Group>
          </div>
        ))}
      </Stack>
    </Panel>
  );
}

export function MyBadges({ earned, title = 'My Badges' }: { earned: EarnedBadge[]; title?: string }) {
  const latest = earned[0];
  return (
    <Panel title={title} testId="my-badges">
      {earned.length === 0 ? (
        <NoBadgesYet />
      ) : (
        <Group gap="xs">
          {earned.slice(0, LIMITS.myBadges).map((b) => (
            <SmallBadge key={b.row.id} achievement={b.achievement} />
          ))}
          <Overflow count={earned.length - LIMITS.myBadges} />
        </Group>
      )}
      {latest ? (
        <Group gap={6} mt="sm">
          <IconTrophy size={14} aria-hidden />
          <Text size="xs" c="dimmed" data-testid="latest-badge">
            Latest: {latest.achievement.name} on {formatDate(latest.row.earnedAt)}
          </Text>
        </Group>
      ) : null}
      <Anchor component={Link} to="/achievements" size="sm" mt="sm" display="inline-block">
        View All Badges
      </Anchor>
    </Panel>
  );
}
