import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { type Invite, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@chronicler/schema';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import { collaborationApi } from '../api';

interface Props {
  invite: Invite;
  disabled: boolean;
  onAnswered: () => void;
}

/** A pending invite to the author: who invites them, to what, with which role; Accept or Decline. */
export function InviteCard({ invite, disabled, onAnswered }: Props) {
  const [busy, setBusy] = useState<'accept' | 'decline' | null>(null);

  const answer = async (kind: 'accept' | 'decline') => {
    setBusy(kind);
    try {
      if (kind === 'accept') {
        await collaborationApi.accept(invite.id);
        toast.show(TOASTS.invitationAccepted);
      } else {
        await collaborationApi.decline(invite.id);
        toast.show(TOASTS.invitationDeclined);
      }
      onAnswered();
    } catch (error) {
      toast.show(withError(kind === 'accept' ? TOASTS.invitationAcceptFailed : TOASTS.invitationDeclineFailed, error));
      onAnswered();
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder radius="lg" padding="lg" data-testid={`invite-${invite.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{invite.seriesName}</Text>
          <Badge variant="light">{ROLE_LABELS[invite.role]}</Badge>
        </Group>
        <Text size="sm">
          {invite.inviterName} invited you as {ROLE_LABELS[invite.role].toLowerCase()} ({ROLE_DESCRIPTIONS[invite.role].toLowerCase()}).
        </Text>
        {invite.message ? (
          <Text size="sm" fs="italic" c="dimmed">
            “{invite.message}”
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          Expires {new Date(invite.expiresAt).toLocaleDateString()}
        </Text>
        <Group gap="xs">
          <Button size="xs" loading={busy === 'accept'} disabled={disabled || busy !== null} onClick={() => void answer('accept')}>
            Accept
          </Button>
          <Button size="xs" variant="default" loading={busy === 'decline'} disabled={disabled || busy !== null} onClick={() => void answer('decline')}>
            Decline
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
