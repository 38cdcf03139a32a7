import { useCallback, useEffect, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { IconCrown, IconDoorExit, IconTrash, IconX } from '@tabler/icons-react';
import {
  type ActivityEntry,
  type CollaborativeSeries,
  type InviteRole,
  type MembersResponse,
  type SeriesMember,
  ROLE_LABELS,
  describeActivity,
  roleAllows,
} from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { isNetworkError } from '@/lib/api';
import { MEMBER_TOASTS } from '@/lib/copy/collaboration';
import { withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import { collaborationApi } from '../api';
import { ROLE_OPTIONS } from './InviteDialog';

interface Props {
  series: CollaborativeSeries;
  userId: string;
  /** Something changed that the series list shows (counts, or the author left). */
  onChanged: () => void;
  /** Bumped by the page after an invite, to reload the pending list. */
  reloadKey?: number;
}

type Pending = { kind: 'remove'; member: SeriesMember } | { kind: 'leave' } | { kind: 'transfer'; member: SeriesMember } | null;

/** When someone did something, in the author's words ("5 minutes ago" style is the dashboard's; a date is enough here). */
const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The members of a series with their roles, its pending invites and recent activity. Owners and
 * admins change roles, remove members and revoke invites (an admin cannot act on another admin);
 * the owner hands the series over; anyone but the owner may leave.
 */
export function MembersPanel({ series, userId, onChanged, reloadKey = 0 }: Props) {
  const [data, setData] = useState<MembersResponse | null>(null);
  const [activity, setActivity] = useState<ActivityEntry[]>([]);
  const [state, setState] = useState<'loading' | 'ready' | 'error' | 'offline'>('loading');
  const [pending, setPending] = useState<Pending>(null);
  const manager = roleAllows(series.role, 'manage');
  const isOwner = series.role === 'owner';

  const load = useCallback(async () => {
    try {
      const [members, recent] = await Promise.all([collaborationApi.members(series.id), collaborationApi.activity(series.id)]);
      setData(members);
      setActivity(recent);
      setState('ready');
    } catch (error) {
      setState(isNetworkError(error) ? 'offline' : 'error');
    }
  }, [series.id]);

  useEffect(() => {
    void load();
  }, [load, reloadKey, series.role, series.memberCount]);

  const act = async (run: () => Promise<unknown>, done: (typeof MEMBER_TOASTS)[keyof typeof MEMBER_TOASTS], failed = MEMBER_TOASTS.memberActionFailed) => {
    try {
      await run();
      toast.show(done);
      onChanged();
      await load();
    } catch (error) {
      toast.show(withError(failed, error));
    }
  };

  if (state === 'loading') return <Loader size="sm" aria-label="Loading members" />;
  if (state !== 'ready' || !data) {
    return (
      <Alert color={state === 'offline' ? 'gray' : 'red'} variant="light" title={state === 'offline' ? "You're offline" : 'Could not load the members'}>
        <Button size="xs" variant="light" onClick={() => void load()}>
          Try again
        </Button>
      </Alert>
    );
  }

  const canManage = (member: SeriesMember) => manager && member.role !== 'owner' && member.userId !== userId && (isOwner || member.role !== 'admin');

  return (
    <Stack gap="sm" data-testid={`members-${series.id}`}>
      <Text fw={600} size="sm">
        Members
      </Text>
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data.members.map((member) => (
          <Group key={member.userId} component="li" justify="space-between" wrap="nowrap" gap="xs">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" truncate>
                {member.displayName}
                {member.userId === userId ? ' (you)' : ''}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                @{member.username}
              </Text>
            </Stack>
            <Group gap={6} wrap="nowrap">
              {canManage(member) ? (
                <Select
                  size="xs"
                  w={130}
                  aria-label={`Role of ${member.displayName}`}
                  data={ROLE_OPTIONS.filter((o) => isOwner || o.value !== 'admin').map((o) => ({ value: o.value, label: ROLE_LABELS[o.value] }))}
                  value={member.role}
                  allowDeselect={false}
                  onChange={(value) => {
                    if (value && value !== member.role) void act(() => collaborationApi.changeRole(series.id, member.userId, value as InviteRole), MEMBER_TOASTS.roleChanged);
                  }}
                />
              ) : (
                <Badge variant={member.role === 'owner' ? 'filled' : 'light'}>{ROLE_LABELS[member.role]}</Badge>
              )}
              {isOwner && member.role !== 'owner' ? (
                <DeferredTooltip label={`Hand the series to ${member.displayName}`}>
                  <ActionIcon variant="subtle" aria-label={`Make ${member.displayName} the owner`} onClick={() => setPending({ kind: 'transfer', member })}>
                    <IconCrown size={16} />
                  </ActionIcon>
                </DeferredTooltip>
              ) : null}
              {canManage(member) ? (
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${member.displayName}`} onClick={() => setPending({ kind: 'remove', member })}>
                  <IconTrash size={16} />
                </ActionIcon>
              ) : null}
            </Group>
          </Group>
        ))}
      </Stack>

      {manager && data.invites.length > 0 ? (
        <>
          <Text fw={600} size="sm" mt="xs">
            Pending invitations
          </Text>
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.invites.map((invite) => (
              <Group key={invite.id} component="li" justify="space-between" wrap="nowrap">
                <Text size="sm" truncate>
                  {invite.inviteeEmail ?? 'Single-use link'} · {ROLE_LABELS[invite.role]} · expires {new Date(invite.expiresAt).toLocaleDateString()}
                </Text>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Revoke the invitation to ${invite.inviteeEmail ?? 'the link'}`}
                  onClick={() => void act(() => collaborationApi.revoke(invite.id), MEMBER_TOASTS.inviteRevoked)}
                >
                  <IconX size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        </>
      ) : null}

      {activity.length > 0 ? (
        <>
          <Text fw={600} size="sm" mt="xs">
            Recent activity
          </Text>
          <Stack gap={2} component="ul" style={{ paddingLeft: 18, margin: 0 }}>
            {activity.slice(0, 8).map((entry) => (
              <Text key={entry.id} component="li" size="xs" c="dimmed">
                {describeActivity(entry)} — {when(entry.createdAt)}
              </Text>
            ))}
          </Stack>
        </>
      ) : null}

      {!isOwner ? (
        <Group justify="flex-end">
          <Button size="xs" variant="subtle" color="red" leftSection={<IconDoorExit size={14} />} onClick={() => setPending({ kind: 'leave' })}>
            Leave series
          </Button>
        </Group>
      ) : null}

      <ConfirmDeleteDialog
        opened={pending?.kind === 'remove'}
        title="Remove member"
        message={pending?.kind === 'remove' ? `Remove ${pending.member.displayName} from ${series.name}? The series leaves their devices; their unsent changes stay in their problems panel.` : ''}
        confirmLabel="Remove"
        onCancel={() => setPending(null)}
        onConfirm={async () => {
          if (pending?.kind === 'remove') await act(() => collaborationApi.removeMember(series.id, pending.member.userId), MEMBER_TOASTS.memberRemoved);
          setPending(null);
        }}
      />
      <ConfirmDeleteDialog
        opened={pending?.kind === 'leave'}
        title="Leave series"
        message={`Leave ${series.name}? It is removed from this device; any changes not yet synced stay in the problems panel.`}
        confirmLabel="Leave"
        onCancel={() => setPending(null)}
        onConfirm={async () => {
          await act(() => collaborationApi.leave(series.id), MEMBER_TOASTS.leftSeries, MEMBER_TOASTS.leaveFailed);
          setPending(null);
        }}
      />
      <ConfirmDeleteDialog
        opened={pending?.kind === 'transfer'}
        title="Hand over the series"
        message={pending?.kind === 'transfer' ? `Make ${pending.member.displayName} the owner of ${series.name}? Their plan's limits will apply, and you stay on as an admin.` : ''}
        confirmLabel="Hand over"
        onCancel={() => setPending(null)}
        onConfirm={async () => {
          if (pending?.kind === 'transfer') await act(() => collaborationApi.transfer(series.id, pending.member.userId), MEMBER_TOASTS.ownershipTransferred);
          setPending(null);
        }}
      />
    </Stack>
  );
}
