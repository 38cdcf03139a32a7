import { Group, Paper, Progress, Text, ThemeIcon } from '@mantine/core';
import { DeferredTooltip } from '@/lib/first-load';
import { IconFlame, IconPencil, IconTrendingDown, IconTrendingUp } from '@tabler/icons-react';
import type { DayState, StreakSummary, Trend } from '@chronicler/schema';
import { trendText } from '../model/figures';

interface StatCardProps {
  title: string;
  value: string;
  icon: React.ReactNode;
  children?: React.ReactNode;
  testId: string;
}

/** The dashboard's stat card (000 §2): title, value, icon, and an optional trend or bar below. */
function StatCard({ title, value, icon, children, testId }: StatCardProps) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title} data-testid={testId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.5}>
            {title}
          </Text>
          <Text fz={28} fw={700} lh={1.2} data-testid={`${testId}-value`}>
            {value}
          </Text>
        </div>
        <ThemeIcon variant="light" size={40} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
      {children}
    </Paper>
  );
}

export function WordsTodayCard({ words, trend, goal }: { words: number; trend: Trend; goal: number | null }) {
  const TrendIcon = trend.direction === 'decrease' ? IconTrendingDown : IconTrendingUp;
  return (
    <StatCard title="Words Today" value={words.toLocaleString('en-US')} icon={<IconPencil size={22} />} testId="words-today">
      <Group gap={4} mt="xs" c={trend.direction === 'decrease' ? 'red' : trend.direction === 'increase' ? 'teal' : 'dimmed'}>
        {trend.direction === 'same' ? null : <TrendIcon size={16} aria-hidden />}
        <Text size="sm" data-testid="words-today-trend">
          {trendText(trend)}
        </Text>
      </Group>
      {goal !== null ? (
        <>
          <Progress value={Math.min(100, (words / goal) * 100)} size="sm" mt="xs" aria-label={`Daily goal ${Math.min(100, Math.round((words / goal) * 100))}%`} />
          <Text size="xs" c="dimmed" mt={4}>
            Daily goal: {goal.toLocaleString('en-US')} words
          </Text>
        </>
      ) : null}
    </StatCard>
  );
}

const SEGMENT_COLOUR: Record<DayState | 'none', string> = {
  written: 'var(--mantine-color-orange-6)',
  rest: 'var(--mantine-color-blue-3)',
  frozen: 'var(--mantine-color-cyan-4)',
  pending: 'var(--mantine-color-gray-3)',
  missed: 'var(--mantine-color-gray-3)',
  none: 'var(--mantine-color-gray-3)',
};
const SEGMENT_LABEL: Record<DayState | 'none', string> = {
  written: 'written',
  rest: 'rest day',
  frozen: 'streak freeze',
  pending: 'not yet today',
  missed: 'missed',
  none: 'no writing',
};

/** The 7-segment bar of the last seven days (000 §2, §9), oldest first. */
export function StreakBar({ days }: { days: StreakSummary['lastDays'] }) {
  return (
    <Group gap={4} mt="xs" wrap="nowrap" role="list" aria-label="Last seven days" data-testid="streak-bar">
      {days.map((d) => (
        <DeferredTooltip key={d.day} label={`${d.day}: ${SEGMENT_LABEL[d.state]}`}>
          <div
            role="listitem"
            aria-label={`${d.day}: ${SEGMENT_LABEL[d.state]}`}
            data-state={d.state}
            style={{ flex: 1, height: 8, borderRadius: 4, background: SEGMENT_COLOUR[d.state] }}
          />
        </DeferredTooltip>
      ))}
    </Group>
  );
}

export function StreakCard({ streak }: { streak: StreakSummary }) {
  return (
    <StatCard title="Current Streak" value={`${streak.current} ${streak.current === 1 ? 'day' : 'days'}`} icon={<IconFlame size={22} />} testId="current-streak">
      <StreakBar days={streak.lastDays} />
      <Text size="xs" c="dimmed" mt={4}>
        Longest: {streak.longest} {streak.longest === 1 ? 'day' : 'days'}
      </Text>
    </StatCard>
  );
}
