import './styles';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge, Button, Card, Group, Paper, SimpleGrid, Skeleton, Tabs, Text, ThemeIcon } from '@mantine/core';
import { IconChartBar, IconCircleCheck, IconLock, IconRefresh, IconShare, IconTrophy } from '@tabler/icons-react';
import { type Achievement, type UserAchievementAnswer, achievementUnit, achievementsForPlan, progressByType } from '@chronicler/schema';
import { keepServerRows, userAchievementsTable } from '@chronicler/sync-client';
import { EmptyPanel } from '@/components/EmptyPanel';
import { ShareCardDialog } from '@/components/ShareCardDialog';
import { OpenedOnce } from '@/lib/first-load';
import type { ShareCardContent } from '@/lib/shareCard';
import { PageHeader } from '@/components/PageHeader';
import { api } from '@/lib/api';
import { TOASTS, newAchievementsToast } from '@/lib/copy/toasts';
import { useDb } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';
import { AchievementIcon } from './components/AchievementIcon';
import { TypeProgress } from './components/BadgePanels';
import { useProgress } from './hooks/useProgress';

const TABS = ['all', 'earned', 'available'] as const;
type Tab = (typeof TABS)[number];

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long' });
}

function SummaryCard({ title, value, testId }: { title: string; value: string; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.5}>
        {title}
      </Text>
      <Text fz={24} fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

function AchievementCard({ achievement, earnedAt, onShare }: { achievement: Achievement; earnedAt: string | null; onShare: () => void }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid="achievement-card" data-earned={earnedAt !== null} style={earnedAt === null ? { opacity: 0.75 } : undefined}>
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ThemeIcon size={40} radius="xl" variant="light" color={earnedAt ? 'yellow' : 'gray'}>
          {earnedAt ? <AchievementIcon achievement={achievement} size={22} /> : <IconLock size={20} aria-hidden />}
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text fw={600}>{achievement.name}</Text>
          <Text size="sm" c="dimmed">
            {achievement.description}
          </Text>
          {earnedAt ? (
            <Group gap={6} mt={6}>
              <Badge color="green" leftSection={<IconCircleCheck size={12} />}>
                Earned
              </Badge>
              <Text size="xs" c="dimmed">
                Earned on {formatDate(earnedAt)}
              </Text>
              <Button variant="subtle" size="compact-xs" leftSection={<IconShare size={12} aria-hidden />} onClick={onShare} aria-label={`Share ${achievement.name}`}>
                Share
              </Button>
            </Group>
          ) : (
            <Text size="xs" c="dimmed" mt={6}>
              Target: {achievement.requiredValue.toLocaleString('en-US')} {achievementUnit(achievement.type)}
            </Text>
          )}
        </div>
      </Group>
    </Card>
  );
}

/** Achievements (spec 000 §2): summary, categories, the All / Earned / Available tabs and the check. */
export function AchievementsScreen() {
  const db = useDb();
  const online = useOnline();
  const { figures, plan } = useProgress();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'all';
  const [checking, setChecking] = useState(false);
  const [sharing, setSharing] = useState<ShareCardContent | null>(null);
  const [shareOpen, setShareOpen] = useState(false);

  const catalogue = achievementsForPlan(plan);
  const earnedAt = new Map((figures?.earned ?? []).map((e) => [e.achievement.id, e.row.earnedAt]));
  const earnedCount = catalogue.filter((a) => earnedAt.has(a.id)).length;
  const latest = figures?.earned[0];

  // Arriving with ?share=<achievement> (the dashboard's NEW badge): open that achievement's card once.
  const shareId = params.get('share');
  const shareEarnedAt = shareId ? earnedAt.get(shareId) : undefined;
  useEffect(() => {
    if (!shareId || shareEarnedAt === undefined) return;
    const achievement = catalogue.find((a) => a.id === shareId);
    if (achievement) {
      setSharing(achievementCard(achievement, shareEarnedAt));
      setShareOpen(true);
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('share');
        return next;
      },
      { replace: true },
    );
  }, [shareId, shareEarnedAt, catalogue, setParams]);

  const check = async () => {
    setChecking(true);
    try {
      const earned = await api.post<UserAchievementAnswer[]>('/api/check-achievements');
      await keepServerRows(userAchievementsTable(db), earned.map(({ achievement: _a, ...row }) => row));
      toast.show(earned.length > 0 ? newAchievementsToast(earned.length) : TOASTS.noNewAchievements);
    } catch {
      toast.show(TOASTS.achievementCheckFailed);
    } finally {
      setChecking(false);
    }
  };

  const shown = catalogue.filter((a) => (tab === 'earned' ? earnedAt.has(a.id) : tab === 'available' ? !earnedAt.has(a.id) : true));
  const empty =
    tab === 'earned'
      ? { title: 'No Achievements Earned Yet', description: 'Keep writing and creating to unlock your first achievement.' }
      : tab === 'available'
        ? { title: 'All Achievements Earned!', description: 'You have earned every achievement of your plan.' }
        : { title: 'No Achievements Available', description: 'There are no achievements to earn right now.' };

  return (
    <>
      <PageHeader
        title="Achievements"
        subtitle="Milestones earned on your writing journey"
        actions={
          <>
            <Button component={Link} to="/analytics" variant="default" leftSection={<IconChartBar size={16} aria-hidden />}>
              Analytics
            </Button>
            <Button leftSection={<IconRefresh size={16} />} onClick={check} loading={checking} disabled={!online}>
              Check for New Achievements
            </Button>
          </>
        }
      />
      {!online ? (
        <Text size="sm" c="dimmed" mb="md" data-testid="offline-note">
          You are offline. Achievements are checked when you are back online; badges earned meanwhile appear after syncing.
        </Text>
      ) : null}
      {figures === undefined ? (
        <Skeleton height={90} radius="md" aria-busy="true" />
      ) : (
        <SimpleGrid cols={{ base: 2, md: 4 }} mb="lg">
          <SummaryCard title="Achievements Earned" value={String(earnedCount)} testId="summary-earned" />
          <SummaryCard title="Completion Rate" value={`${catalogue.length === 0 ? 0 : Math.round((earnedCount / catalogue.length) * 100)}%`} testId="summary-rate" />
          <SummaryCard title="Latest Achievement" value={latest ? formatDate(latest.row.earnedAt) : 'None'} testId="summary-latest" />
          <SummaryCard title="Achievements Remaining" value={String(catalogue.length - earnedCount)} testId="summary-remaining" />
        </SimpleGrid>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} mb="lg">
        {progressByType(catalogue, new Set(earnedAt.keys())).map((t) => (
          <Paper key={t.type} withBorder radius="md" p="sm" data-testid={`category-${t.type}`}>
            <TypeProgress {...t} />
          </Paper>
        ))}
      </SimpleGrid>
      <Tabs value={tab} onChange={(value) => setParams(value && value !== 'all' ? { tab: value } : {}, { replace: true })}>
        <Tabs.List mb="md">
          <Tabs.Tab value="all">All</Tabs.Tab>
          <Tabs.Tab value="earned">Earned</Tabs.Tab>
          <Tabs.Tab value="available">Available</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {shown.length === 0 ? (
        <EmptyPanel compact icon={<IconTrophy size={28} />} title={empty.title} description={empty.description} data-testid="achievements-empty" />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid={`achievements-${tab}`}>
          {shown.map((a) => (
            <AchievementCard key={a.id} achievement={a} earnedAt={earnedAt.get(a.id) ?? null} onShare={() => {
                setSharing(achievementCard(a, earnedAt.get(a.id) ?? ''));
                setShareOpen(true);
              }} />
          ))}
        </SimpleGrid>
      )}
      <OpenedOnce opened={shareOpen}>
        {(opened) => <ShareCardDialog opened={opened} content={sharing} onClose={() => setShareOpen(false)} />}
      </OpenedOnce>
    </>
  );
}

/** An earned achievement's share card: its name and what it took, never any of the author's text. */
function achievementCard(achievement: Achievement, earnedAt: string): ShareCardContent {
  return {
    kicker: 'Achievement earned',
    figure: achievement.name,
    title: achievement.description,
    footer: earnedAt ? `Earned on ${formatDate(earnedAt)}` : '',
  };
}
