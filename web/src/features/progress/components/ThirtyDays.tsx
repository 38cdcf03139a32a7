// The forms' Mantine CSS comes with them, after the dashboard's first screenful.
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Chip.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Chip, Group, NativeSelect, NumberInput, Paper, Text, Title } from '@mantine/core';
import { DeferredTooltip } from '@/lib/first-load';
import { DEFAULT_DAY_END_HOUR, DEFAULT_FREEZES_PER_MONTH, MAX_DAILY_GOAL, MAX_FREEZES_PER_MONTH, type UpdateWritingSettingsBody, type WritingSettings } from '@chronicler/schema';
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
/**
 * From the theme's own colours, so the grid belongs to every theme (fixed light greys stayed light in
 * Dark and Spooky): no words is the theme's border colour, more words more of its accent.
 */
const SHADES = [
  'var(--app-border)',
  'color-mix(in srgb, var(--mantine-primary-color-filled) 30%, var(--app-border))',
  'color-mix(in srgb, var(--mantine-primary-color-filled) 55%, var(--app-border))',
  'color-mix(in srgb, var(--mantine-primary-color-filled) 80%, var(--app-border))',
  'var(--mantine-primary-color-filled)',
];

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
            <DeferredTooltip key={d.day} label={label}>
              <div role="listitem" aria-label={label} data-level={heatLevel(d.words, goal)} style={{ aspectRatio: '1', borderRadius: 4, background: SHADES[heatLevel(d.words, goal)] }} />
            </DeferredTooltip>
          );
        })}
      </div>
      <Group justify="space-between" gap="xs" mt="xs">
        <Text size="xs" c="dimmed">
          {days.reduce((sum, d) => sum + d.words, 0).toLocaleString('en-US')} words in 30 days
        </Text>
        <Anchor component={Link} to="/analytics" size="xs">
          All your analytics
        </Anchor>
      </Group>
    </Paper>
  );
}

/** Saves writing settings on the server (they are the author's on every device) and keeps the answer locally. */
function useSaveSettings() {
  const db = useDb();
  const [saving, setSaving] = useState(false);
  const save = async (body: UpdateWritingSettingsBody, done: { title: string; message: string }) => {
    setSaving(true);
    try {
      const row = await api.put<WritingSettings>('/api/writing-settings', body);
      await keepServerRows(writingSettingsTable(db), [row]);
      toast.show(done);
    } catch (error) {
      toast.show({ title: 'Settings not saved', message: serverMessageOf(error, 'Your settings could not be saved. Try again.'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
}

function OfflineNote({ online }: { online: boolean }) {
  return online ? null : (
    <Text size="xs" c="dimmed" mt={4}>
      You are offline: settings can be changed once you are back online.
    </Text>
  );
}

/** The daily word goal (Wordsmith and above, `writingChallenges`): the streak target, kept on the server for every device. */
export function DailyGoalForm({ goal }: { goal: number | null }) {
  const online = useOnline();
  const [value, setValue] = useState<number | string>(goal ?? '');
  const { save: saveSettings, saving } = useSaveSettings();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const next = value === '' ? null : Number(value);
    await saveSettings(
      { dailyGoal: next },
      { title: 'Daily goal saved', message: next === null ? 'Any word now counts toward your streak.' : `Your streak now counts days of ${next.toLocaleString('en-US')} words or more.` },
    );
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
      <OfflineNote online={online} />
    </Paper>
  );
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const HOURS = Array.from({ length: 13 }, (_, h) => ({ value: String(h), label: h === 0 ? 'Midnight' : `${String(h).padStart(2, '0')}:00` }));

/** When a writing day ends, the rest days and the monthly freezes of the streak (every plan). */
export function StreakSettingsForm({ settings }: { settings: WritingSettings | null }) {
  const online = useOnline();
  const { save, saving } = useSaveSettings();
  const [dayEndHour, setDayEndHour] = useState(String(settings?.dayEndHour ?? DEFAULT_DAY_END_HOUR));
  const [restDays, setRestDays] = useState<string[]>((settings?.restDays ?? []).map(String));
  const [freezes, setFreezes] = useState<number | string>(settings?.freezesPerMonth ?? DEFAULT_FREEZES_PER_MONTH);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await save(
      { dayEndHour: Number(dayEndHour), restDays: restDays.map(Number), freezesPerMonth: Number(freezes) },
      { title: 'Streak settings saved', message: 'Your streak follows your new settings.' },
    );
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Streak settings" data-testid="streak-settings">
      <Title order={2} fz="md" mb="xs">
        Streak Settings
      </Title>
      <form onSubmit={submit}>
        <Group gap="md" align="flex-end" wrap="wrap">
          {/* The platform's own picker (a phone's wheel): Mantine's Select positioned its closed list with
              Floating UI as it mounted — a synchronous re-render and a style recalculation in the
              dashboard's commit, which counted as blocking time. */}
          <NativeSelect label="My writing day ends at" description="Late sessions count for the day they began" data={HOURS} value={dayEndHour} onChange={(event) => setDayEndHour(event.currentTarget.value)} w={220} />
          <NumberInput label="Streak freezes per month" description="Missed days that keep a streak alive" min={0} max={MAX_FREEZES_PER_MONTH} allowDecimal={false} value={freezes} onChange={setFreezes} w={220} />
        </Group>
        <Text size="sm" fw={500} mt="sm">
          Rest days
        </Text>
        <Chip.Group multiple value={restDays} onChange={setRestDays}>
          <Group gap={6} mt={4} role="group" aria-label="Rest days">
            {WEEKDAYS.map((d, i) => (
              <Chip key={d} value={String(i)} size="xs" disabled={!restDays.includes(String(i)) && restDays.length >= 6}>
                {d}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
        <Button type="submit" mt="sm" loading={saving} disabled={!online}>
          Save
        </Button>
      </form>
      <OfflineNote online={online} />
    </Paper>
  );
}
