import '../styles';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Badge, Button, Group, Loader, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { IconAlertCircle, IconBooks, IconMailOpened, IconPlus, IconUsersGroup, IconWifiOff } from '@tabler/icons-react';
import { gateState } from '@chronicler/schema';
import { EmptyPanel } from '@/components/EmptyPanel';
import { PageHeader } from '@/components/PageHeader';
import { ALERTS, TOASTS, withError } from '@/lib/copy/toasts';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';
import { collaborationApi } from '../api';
import { useCollaboration } from '../hooks/useCollaboration';
import { InviteCard } from './InviteCard';
import { NewCollaborativeSeriesDialog } from './NewCollaborativeSeriesDialog';
import { SeriesCollabCard } from './SeriesCollabCard';

type Tab = 'mine' | 'contributing' | 'invites';

function TabLabel({ label, count }: { label: string; count: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      {label}
      <Badge size="sm" variant="light" circle={count < 10} aria-label={`${count}`}>
        {count}
      </Badge>
    </Group>
  );
}

/** /collaboration?invite={token}: a single-use link to join a series, answered here once signed in. */
function InviteLinkPrompt({ token, onDone }: { token: string; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const join = async () => {
    setBusy(true);
    try {
      await collaborationApi.acceptLink(token);
      toast.show(TOASTS.invitationAccepted);
      onDone();
    } catch (error) {
      toast.show(withError(TOASTS.invitationAcceptFailed, error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert color="indigo" variant="light" icon={<IconMailOpened size={18} />} title="You have an invitation link" mb="lg">
      <Group justify="space-between">
        <Text size="sm">Join the series it invites you to.</Text>
        <Group gap="xs">
          <Button size="xs" loading={busy} onClick={() => void join()}>
            Join series
          </Button>
          <Button size="xs" variant="default" onClick={onDone}>
            Not now
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}

/**
 * The Collaboration page (001 §2, §4): My Series (owned), Contributing (the owner named), Invites
 * (pending, with Accept and Decline), each with a count badge; New Series and Invite behind the
 * plan gate (collaboration, Loremaster and above) — members need no plan to contribute.
 */
export function CollaborationScreen() {
  const user = useSession((s) => s.user);
  const online = useOnline();
  const { status, series, invites, refresh } = useCollaboration();
  const [tab, setTab] = useState<Tab>('mine');
  const [creating, setCreating] = useState(false);
  const [params, setParams] = useSearchParams();
  const linkToken = params.get('invite');

  const userId = user?.id ?? '';
  const gate = gateState({ plan: user?.plan ?? 'apprentice', feature: 'collaboration' });
  const mine = series.filter((s) => s.ownerId === userId);
  const contributing = series.filter((s) => s.ownerId !== userId);
  const canWrite = online && status !== 'offline';

  const clearLink = () => {
    params.delete('invite');
    setParams(params, { replace: true });
    void refresh();
  };

  return (
    <>
      <PageHeader
        title="Collaboration"
        subtitle="Write series together with co-authors, editors and beta readers"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} disabled={gate.locked || !canWrite}>
            New Series
          </Button>
        }
      />

      {gate.locked ? (
        <Alert color="yellow" variant="light" icon={<IconAlertCircle size={18} />} title={ALERTS.collaborationNotAvailable.title} mb="lg">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{ALERTS.collaborationNotAvailable.message}</Text>
            <Text size="sm" c="dimmed">
              You can still accept invitations and contribute to other authors' series.
            </Text>
            <Button component={Link} to="/subscriptions" size="xs" variant="light">
              Upgrade Your Plan
            </Button>
          </Stack>
        </Alert>
      ) : null}

      {status === 'error' ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={ALERTS.collaborationLoadFailed.title} mb="lg">
          <Button size="xs" variant="light" color="red" onClick={() => void refresh()}>
            Try again
          </Button>
        </Alert>
      ) : null}

      {!canWrite ? (
        <Alert color="gray" variant="light" icon={<IconWifiOff size={18} />} title="You're offline" mb="lg">
          Invitations and members need the server. Your shared series stay on this device: keep writing, changes sync when the connection is back.
        </Alert>
      ) : null}

      {linkToken ? <InviteLinkPrompt token={linkToken} onDone={clearLink} /> : null}

      {status === 'loading' ? (
        <Group justify="center" py="xl">
          <Loader aria-label="Loading collaboration data" />
        </Group>
      ) : (
        <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'mine')} keepMounted={false}>
          <Tabs.List mb="lg">
            <Tabs.Tab value="mine">
              <TabLabel label="My Series" count={mine.length} />
            </Tabs.Tab>
            <Tabs.Tab value="contributing">
              <TabLabel label="Contributing" count={contributing.length} />
            </Tabs.Tab>
            <Tabs.Tab value="invites">
              <TabLabel label="Invites" count={invites.length} />
            </Tabs.Tab>
          </Tabs.List>

          <Tabs.Panel value="mine">
            {mine.length === 0 ? (
              <EmptyPanel
                compact
                icon={<IconBooks size={28} />}
                title="No series yet"
                description="Series you own appear here; invite co-authors to any of them."
                actions={
                  <Button onClick={() => setCreating(true)} disabled={gate.locked || !canWrite}>
                    New Series
                  </Button>
                }
              />
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                {mine.map((s) => (
                  <SeriesCollabCard key={s.id} series={s} userId={userId} canInvite={!gate.locked && canWrite} onChanged={() => void refresh()} />
                ))}
              </SimpleGrid>
            )}
          </Tabs.Panel>

          <Tabs.Panel value="contributing">
            {contributing.length === 0 ? (
              <EmptyPanel compact icon={<IconUsersGroup size={28} />} title="Not contributing yet" description="Series other authors share with you appear here." />
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                {contributing.map((s) => (
                  <SeriesCollabCard key={s.id} series={s} userId={userId} canInvite={canWrite} onChanged={() => void refresh()} />
                ))}
              </SimpleGrid>
            )}
          </Tabs.Panel>

          <Tabs.Panel value="invites">
            {invites.length === 0 ? (
              <EmptyPanel
                compact
                icon={<IconMailOpened size={28} />}
                title="No pending invitations"
                description={user?.email ? `Invitations to ${user.email} appear here.` : 'Add an e-mail to your account to receive invitations, or ask for an invitation link.'}
              />
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                {invites.map((invite) => (
                  <InviteCard key={invite.id} invite={invite} disabled={!canWrite} onAnswered={() => void refresh()} />
                ))}
              </SimpleGrid>
            )}
          </Tabs.Panel>
        </Tabs>
      )}

      <NewCollaborativeSeriesDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setTab('mine');
          void refresh();
        }}
      />
    </>
  );
}
