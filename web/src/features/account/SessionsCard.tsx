import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { type AccountSession, describeDevice } from '@chronicler/schema';
import { isApiError, isNetworkError } from '@/lib/api';
import { withError } from '@/lib/copy/toast-core';
import { toast } from '@/lib/toast';
import { endSession, fetchSessions, signOutOtherSessions } from './api';
import { ACCOUNT_COPY, ACCOUNT_TOASTS } from './copy';

type Load = { status: 'loading' } | { status: 'failed'; offline: boolean } | { status: 'ready'; sessions: AccountSession[] };

const MOBILE = /Android|iPhone|iPad|Mobile/;

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function failureToast(error: unknown) {
  if (isNetworkError(error)) return ACCOUNT_TOASTS.offline;
  return withError(ACCOUNT_TOASTS.sessionEndFailed, isApiError(error) ? error.serverMessage : undefined);
}

interface SessionsCardProps {
  /** Bumped by the parent to list again (after a password change ended the other sessions). */
  reloadKey: number;
  onSignOutEverywhere: () => void;
}

/** The author's signed-in devices: this one marked; sign out one, the others, or everywhere. */
export function SessionsCard({ reloadKey, onSignOutEverywhere }: SessionsCardProps) {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setLoad({ status: 'ready', sessions: await fetchSessions() });
    } catch (error) {
      setLoad({ status: 'failed', offline: isNetworkError(error) });
    }
  }, []);

  useEffect(() => {
    setLoad({ status: 'loading' });
    void refresh();
  }, [refresh, reloadKey]);

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    try {
      await action();
      await refresh();
    } catch (error) {
      toast.show(failureToast(error));
    } finally {
      setBusy(null);
    }
  };

  const sessions = load.status === 'ready' ? load.sessions : [];
  const others = sessions.filter((s) => !s.current);

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} aria-labelledby="sessions-title" component="section">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id="sessions-title">
            {ACCOUNT_COPY.sessionsTitle}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {ACCOUNT_COPY.sessionsHelp}
          </Text>
        </div>

        {load.status === 'loading' ? (
          <Group justify="center" py="lg" role="status" aria-label="Loading your devices">
            <Loader type="dots" aria-hidden />
          </Group>
        ) : null}

        {load.status === 'failed' ? (
          <Stack gap="sm" align="flex-start" role="alert">
            <Text size="sm">{load.offline ? ACCOUNT_COPY.offline : ACCOUNT_COPY.loadFailed}</Text>
            <Button variant="default" size="xs" onClick={() => void refresh()}>
              {ACCOUNT_COPY.retry}
            </Button>
          </Stack>
        ) : null}

        {load.status === 'ready' ? (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={ACCOUNT_COPY.sessionsTitle}>
            {sessions.map((session) => {
              const device = describeDevice(session.userAgent);
              const Icon = MOBILE.test(session.userAgent ?? '') ? IconDeviceMobile : IconDeviceDesktop;
              return (
                <Group component="li" key={session.id} justify="space-between" wrap="nowrap" gap="sm" py={6} data-testid="session-row">
                  <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                    <Icon size={22} stroke={1.5} aria-hidden />
                    <div style={{ minWidth: 0 }}>
                      <Group gap={6}>
                        <Text fw={600} size="sm">
                          {device}
                        </Text>
                        {session.current ? (
                          <Badge size="sm" variant="light">
                            {ACCOUNT_COPY.thisDevice}
                          </Badge>
                        ) : null}
                      </Group>
                      <Text size="xs" c="dimmed">
                        Last active {formatDate(session.lastSeenAt)} · signed in {formatDate(session.createdAt)}
                      </Text>
                    </div>
                  </Group>
                  {session.current ? null : (
                    <Button
                      variant="default"
                      size="xs"
                      loading={busy === session.id}
                      disabled={busy !== null && busy !== session.id}
                      aria-label={`${ACCOUNT_COPY.signOutDevice}: ${device}, last active ${formatDate(session.lastSeenAt)}`}
                      onClick={() =>
                        void run(session.id, async () => {
                          await endSession(session.id);
                          toast.show(ACCOUNT_TOASTS.sessionEnded);
                        })
                      }
                    >
                      {ACCOUNT_COPY.signOutDevice}
                    </Button>
                  )}
                </Group>
              );
            })}
            {others.length === 0 ? (
              <Text component="li" size="sm" c="dimmed">
                {ACCOUNT_COPY.noOtherSessions}
              </Text>
            ) : null}
          </Stack>
        ) : null}

        <Group gap="sm">
          <Button
            variant="default"
            disabled={load.status !== 'ready' || others.length === 0 || (busy !== null && busy !== 'others')}
            loading={busy === 'others'}
            onClick={() =>
              void run('others', async () => {
                toast.show(ACCOUNT_TOASTS.othersSignedOut(await signOutOtherSessions()));
              })
            }
          >
            {ACCOUNT_COPY.signOutOthers}
          </Button>
          <Button color="red" variant="light" onClick={onSignOutEverywhere} disabled={busy !== null}>
            {ACCOUNT_COPY.signOutEverywhere}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
