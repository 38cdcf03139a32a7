import { useState, type ReactNode } from 'react';
import { Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { BarChart, BarsList } from '@mantine/charts';
import type { StatsPeriod } from '@chronicler/schema';
import { type AnalyticsFigures, type NamedWords, hourLabel, minutesLabel, periodLabel } from '../../model/analytics';
import { ChartPanel } from './ChartPanel';

const number = (n: number) => n.toLocaleString('en-US');
const wordsText = (n: number) => `${number(n)} ${n === 1 ? 'word' : 'words'}`;
const daysText = (n: number) => `${number(n)} ${n === 1 ? 'day' : 'days'}`;
/** The theme's own colour: every theme (and the Theme Pack's) gives its primary a readable filled shade. */
const BAR_COLOR = 'var(--mantine-primary-color-filled)';
const CHART_HEIGHT = 240;
/** Bars with their label on them: the light shade and the page's text, so a label longer than its
 * bar stays readable on the bar and past it, in every theme. */
const LIGHT_BAR_COLOR = 'var(--mantine-primary-color-light)';
const LIGHT_BAR_TEXT = 'var(--mantine-color-text)';

function formatDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
}

function Stat({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.5}>
        {label}
      </Text>
      <Text fz={{ base: 20, sm: 24 }} fw={700}>
        {value}
      </Text>
      {detail ? (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      ) : null}
    </Paper>
  );
}

export function AnalyticsStats({ figures }: { figures: AnalyticsFigures }) {
  const { totals } = figures;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" data-testid="analytics-stats">
      <Stat label="Words written" value={number(totals.words)} testId="stat-total-words" />
      <Stat label="Writing days" value={number(totals.writingDays)} testId="stat-writing-days" />
      <Stat label="Longest streak" value={daysText(totals.longestStreak)} testId="stat-longest-streak" />
      <Stat label="Current streak" value={daysText(totals.currentStreak)} testId="stat-current-streak" />
      <Stat
        label="Best day"
        value={totals.bestDay ? wordsText(totals.bestDay.words) : '—'}
        detail={totals.bestDay ? formatDay(totals.bestDay.day) : undefined}
        testId="stat-best-day"
      />
      <Stat label="Most words at" value={figures.peakHour === null ? '—' : hourLabel(figures.peakHour)} testId="stat-peak-hour" />
    </SimpleGrid>
  );
}

const PERIOD_NAMES: Record<StatsPeriod, { control: string; title: string; column: string }> = {
  day: { control: 'Days', title: 'the last 30 days', column: 'Day' },
  week: { control: 'Weeks', title: 'the last 12 weeks', column: 'Week' },
  month: { control: 'Months', title: 'the last 12 months', column: 'Month' },
};

export function WordsOverTime({ figures }: { figures: AnalyticsFigures }) {
  const [period, setPeriod] = useState<StatsPeriod>('day');
  const rows = figures.periods[period];
  const data = rows.map((p) => ({ label: periodLabel(p.start, period), words: p.words }));
  const total = rows.reduce((sum, p) => sum + p.words, 0);
  const names = PERIOD_NAMES[period];
  return (
    <ChartPanel
      title="Words over time"
      testId="words-over-time"
      summary={`${wordsText(total)} in ${names.title}.`}
      controls={
        <SegmentedControl
          size="xs"
          value={period}
          onChange={(value) => setPeriod(value as StatsPeriod)}
          aria-label="Words per"
          data={(['day', 'week', 'month'] as const).map((p) => ({ value: p, label: PERIOD_NAMES[p].control }))}
        />
      }
      chart={<WordsBars data={data} xAxisProps={{ minTickGap: 12 }} />}
      table={{ caption: `Words per ${names.column.toLowerCase()}, ${names.title}`, columns: [names.column, 'Words'], rows: data.map((d) => [d.label, number(d.words)]) }}
    />
  );
}

/** Words as bars by label (the table beside it is what screen readers get: the chart is hidden from them). */
function WordsBars({ data, xAxisProps }: { data: { label: string; words: number }[]; xAxisProps: { minTickGap: number } | { interval: number } }) {
  return (
    <BarChart
      h={CHART_HEIGHT}
      data={data}
      dataKey="label"
      series={[{ name: 'words', label: 'Words', color: BAR_COLOR }]}
      valueFormatter={number}
      tickLine="y"
      gridAxis="y"
      accessibilityLayer={false}
      xAxisProps={xAxisProps}
    />
  );
}

/** A section whose figures come from the saves, while they are not on this device. */
function Waiting({ title, loading, children }: { title: string; loading: boolean; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title} aria-busy={loading || undefined}>
      <Text fw={700} fz="lg" mb="xs">
        {title}
      </Text>
      {loading ? <Skeleton h={CHART_HEIGHT / 2} radius="md" /> : <Text size="sm" c="dimmed">{children}</Text>}
    </Paper>
  );
}

const NOT_HERE_YET = 'Connect to the internet once and this fills in from your writing sessions; it stays on this device for offline visits.';

export function TimeOfDay({ figures, loading }: { figures: AnalyticsFigures; loading: boolean }) {
  if (figures.hours === null) return <Waiting title="Time of day" loading={loading}>{NOT_HERE_YET}</Waiting>;
  const data = figures.hours.map((words, hour) => ({ label: String(hour).padStart(2, '0'), hour, words }));
  return (
    <ChartPanel
      title="Time of day"
      testId="time-of-day"
      summary={
        figures.peakHour === null
          ? 'No sessions yet.'
          : `You write most between ${hourLabel(figures.peakHour).replace('–', ' and ')} (${figures.timeZone} time).`
      }
      chart={<WordsBars data={data} xAxisProps={{ interval: 2 }} />}
      table={{ caption: 'Words written in each hour of the day', columns: ['Hour', 'Words'], rows: data.map((d) => [hourLabel(d.hour), number(d.words)]) }}
    />
  );
}

export function SessionLengths({ figures, loading }: { figures: AnalyticsFigures; loading: boolean }) {
  const sessions = figures.sessions;
  if (sessions === null) return <Waiting title="Sessions" loading={loading}>{NOT_HERE_YET}</Waiting>;
  const data = sessions.bands.map((b) => ({ label: b.label, sessions: b.sessions }));
  return (
    <ChartPanel
      title="Sessions"
      testId="sessions"
      summary={
        sessions.count === 0
          ? 'No sessions yet.'
          : `${number(sessions.count)} ${sessions.count === 1 ? 'session' : 'sessions'}; a typical one lasts ${minutesLabel(sessions.medianMinutes)}, the longest ${minutesLabel(sessions.longestMinutes)}. A pause of more than 30 minutes ends a session.`
      }
      chart={
        // Bars across, labelled in full: five bands read better as a list than under an axis on a phone.
        <BarsList
          data={data.map((d) => ({ name: d.label, value: d.sessions }))}
          valueFormatter={(n) => `${number(n)} ${n === 1 ? 'session' : 'sessions'}`}
          barsLabel="Length"
          valueLabel="Sessions"
          barColor={LIGHT_BAR_COLOR}
          barTextColor={LIGHT_BAR_TEXT}
        />
      }
      table={{ caption: 'Writing sessions by length', columns: ['Length', 'Sessions'], rows: data.map((d) => [d.label, number(d.sessions)]) }}
    />
  );
}

function PlaceList({ title, rows, testId, column }: { title: string; rows: NamedWords[]; testId: string; column: string }) {
  return (
    <ChartPanel
      title={title}
      testId={testId}
      chart={
        rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No words yet.
          </Text>
        ) : (
          <BarsList
            data={rows.map((r) => ({ name: r.label, value: r.words }))}
            valueFormatter={number}
            barsLabel={column}
            valueLabel="Words"
            barColor={LIGHT_BAR_COLOR}
            barTextColor={LIGHT_BAR_TEXT}
          />
        )
      }
      table={{ caption: `Words written ${title.toLowerCase()}`, columns: [column, 'Words'], rows: rows.map((r) => [r.label, number(r.words)]) }}
    />
  );
}

export function ByPlace({ figures, loading }: { figures: AnalyticsFigures; loading: boolean }) {
  if (figures.books === null || figures.series === null) {
    return (
      <Waiting title="By book and series" loading={loading}>
        {NOT_HERE_YET}
      </Waiting>
    );
  }
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <PlaceList title="By book" column="Book" rows={figures.books} testId="by-book" />
        <PlaceList title="By series" column="Series" rows={figures.series} testId="by-series" />
      </SimpleGrid>
      {figures.elsewhere > 0 ? (
        <Text size="xs" c="dimmed">
          {wordsText(figures.elsewhere)} went into chapters that are no longer on this device.
        </Text>
      ) : null}
    </Stack>
  );
}
