import './analyticsStyles';
import { Link } from 'react-router';
import { Alert, Button, SimpleGrid, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconChartBar, IconCloudOff, IconPencil, IconRefresh } from '@tabler/icons-react';
import { EmptyPanel } from '@/components/EmptyPanel';
import { FeatureGate } from '@/components/FeatureGate';
import { PageHeader } from '@/components/PageHeader';
import { AnalyticsStats, ByPlace, SessionLengths, TimeOfDay, WordsOverTime } from './components/analytics/AnalyticsSections';
import { type ActivityStatus, useAnalytics } from './hooks/useAnalytics';
import { type AnalyticsFigures, hasWriting } from './model/analytics';

function asOf(fetchedAt: number | null): string {
  if (fetchedAt === null) return '';
  return ` Showing your sessions as of ${new Date(fetchedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}.`;
}

/** Why time of day, sessions and books may be older than the day figures (which are always current). */
function ActivityNotice({ status, retry }: { status: ActivityStatus; retry: () => void }) {
  if (status.kind === 'offline') {
    return (
      <Alert color="gray" icon={<IconCloudOff size={18} aria-hidden />} title="You are offline" data-testid="analytics-offline">
        Words per day, week and month and your streaks are up to date.{asOf(status.fetchedAt)}
      </Alert>
    );
  }
  if (status.kind === 'error') {
    return (
      <Alert color="red" title="Sessions could not be loaded" data-testid="analytics-error">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {status.message}
            {asOf(status.fetchedAt)}
          </Text>
          <Button size="xs" variant="light" leftSection={<IconRefresh size={14} aria-hidden />} onClick={retry}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return null;
}

function AnalyticsBody({ figures, loading, preview = false }: { figures: AnalyticsFigures; loading: boolean; preview?: boolean }) {
  return (
    <Stack gap="md">
      <AnalyticsStats figures={figures} />
      <WordsOverTime figures={figures} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <TimeOfDay figures={figures} loading={loading} />
        <SessionLengths figures={figures} loading={loading} />
      </SimpleGrid>
      {preview ? null : <ByPlace figures={figures} loading={loading} />}
    </Stack>
  );
}

function AnalyticsSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" data-testid="analytics-loading">
      <VisuallyHidden role="status">Loading your analytics</VisuallyHidden>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} h={84} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton h={300} radius="md" />
    </Stack>
  );
}

/**
 * /analytics (the plan table's `analytics`; docs/decisions/0019-analytics-charts.md): the author's
 * writing over time, computed on this device. A plan without the feature sees a sample of the page
 * under the upgrade prompt.
 */
export function AnalyticsScreen() {
  const { figures, unlocked, activity, retry } = useAnalytics();
  let body;
  if (figures === undefined) body = <AnalyticsSkeleton />;
  else if (!unlocked) {
    body = (
      <div data-testid="analytics-locked">
        <FeatureGate feature="analytics">
          <AnalyticsBody figures={figures} loading={false} preview />
        </FeatureGate>
      </div>
    );
  } else if (!hasWriting(figures)) {
    body = (
      <EmptyPanel
        icon={<IconChartBar size={28} aria-hidden />}
        title="No writing yet"
        description="Write your first words and this page shows how much you write each day, week and month, when you write most, how long your sessions last and your longest streak."
        actions={
          <Button component={Link} to="/series" leftSection={<IconPencil size={18} aria-hidden />}>
            Start Writing
          </Button>
        }
        data-testid="analytics-empty"
      />
    );
  } else {
    body = (
      <Stack gap="md">
        <ActivityNotice status={activity} retry={retry} />
        <AnalyticsBody figures={figures} loading={activity.kind === 'loading'} />
      </Stack>
    );
  }
  return (
    <>
      <PageHeader title="Analytics" subtitle="Your writing over time" />
      {body}
    </>
  );
}
