import { useState, type FormEvent } from 'react';
import { Button, Group, NumberInput, Paper, Text, Title, Tooltip } from '@mantine/core';
import { MAX_DAILY_GOAL, type WritingSettings } from '@chronicler/schema';
import { keepServerRows, writingSettingsTable } from '@chronicler/sync-client';
import { api, serverMessageOf } from '@/lib/api';
import { useDb } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';

/** Words per day → one of five shades (0 = none). */
export function heatLevel(words: number, goal: number | null): 0 | 1 | 2 | 3 | 4 {
  if (words <= 0) return 0;
  const target = goal ?? 500;
  if (words >= target * 1.5) return 4;
  if (words >= target) return 3;
  if (words >= target / 2) return 2;
  return 1;
}
const SHADES = ['var(--mantine-color-gray-2)', 'var(--mantine-color-orange-2)', 'var(--mantine-color-orange-4)', 'var(--mantine-color-orange-6)', 'var(--mantine-color-orange-8)'];

/** The 30-day view (Wordsmith and above, `thirtyDayStreak`): a calendar heatmap of words per day. */
export function ThirtyDayHeatmap({ days, goal }: { days: { day: string; words: number }[]; goal: number | null }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Last 30 days" data-testid="thirty-days">
      <Title order={2} fz="md" mb="sm">
        Last 30 Days
      </Title>
      <div role="list" style={{ display: 'grid', gridTemplateColumns: 'repeat(10, 1fr)', gap: 4 }}>
        {days.map((d) => {
          const label = `${d.day}: ${d.words.toLocaleString('en-US')} words`;
          return (
            <Tooltip key={d.day} label={label}>
              <div role="listitem" aria-label={label} data-level={heatLevel(d.words, goal)} style={{ aspectRatio: '1', borderRadius: 4, background: SHADES[heatLevel(d.words, goal)] }} />
            </Tooltip>
          );
        })}
      </div>
      <Text size="xs" c="dimmed" mt="xs">
        {days.reduce((sum, d) => sum + d.words, 0).toLocaleString('en-US')} words in 30 days
      </Text>
    </Paper>
  );
}

/** The daily word goal (Wordsmith and above, `writingChallenges`): the streak target, kept on the server for every device. */
export function DailyGoalForm({ goal }: { goal: number | null }) {
  const db = useDb();
  const online = useOnline();
  const [value, setValue] = useState<number | string>(goal ?? '');
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const next = value === '' ? null : Number(value);
    setSaving(true);
    try {
      const row = await api.put<WritingSettings>('/api/writing-settings', { dailyGoal: next });
      await keepServerRows(writingSettingsTable(db), [row]);
      toast.show({ title: 'Daily goal saved', message: next === null ? 'Any word now counts toward your streak.' : `Your streak now counts days of ${next.toLocaleString('en-US')} words or more.` });
    } catch (error) {
      toast.show({ title: 'Goal not saved', message: serverMessageOf(error, 'The goal could not be saved. Try again.'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Daily goal" data-testid="daily-goal">
      <Title order={2} fz="md" mb="xs">
        Daily Goal
      </Title>
      <form onSubmit={save}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <NumberInput
            label="Words per day"
            description="Days that reach it count toward your streak"
            min={1}
            max={MAX_DAILY_GOAL}
            allowDecimal={false}
            value={value}
            onChange={setValue}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={saving} disabled={!online}>
            Save
          </Button>
        </Group>
      </form>
      {!online ? (
        <Text size="xs" c="dimmed" mt={4}>
          You are offline: the goal can be changed once you are back online.
        </Text>
      ) : null}
    </Paper>
  );
}
