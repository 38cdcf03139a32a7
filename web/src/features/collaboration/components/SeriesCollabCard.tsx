import { useState } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Card, Collapse, Group, Stack, Text, Title } from '@mantine/core';
import { IconUserPlus, IconUsers } from '@tabler/icons-react';
import { type CollaborativeSeries, ROLE_LABELS, roleAllows } from '@chronicler/schema';
import { InviteDialog } from './InviteDialog';
import { MembersPanel } from './MembersPanel';

interface Props {
  series: CollaborativeSeries;
  userId: string;
  /** Inviting is open (plan and network). */
  canInvite: boolean;
  onChanged: () => void;
}

const collaborators = (n: number) => `${n} collaborator${n === 1 ? '' : 's'}`;

/** A series on the Collaboration page: its owner, the author's role, the real member count, Open, Invite, Members. */
export function SeriesCollabCard({ series, userId, canInvite, onChanged }: Props) {
  const [inviting, setInviting] = useState(false);
  const [showMembers, setShowMembers] = useState(false);
  const [reloadKey, setReloadKey] = useState(0);
  const owned = series.ownerId === userId;
  const manager = roleAllows(series.role, 'manage');

  return (
    <Card withBorder radius="lg" padding="lg" data-testid={`collab-series-${series.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} fz="lg" lineClamp={2}>
            {series.name}
          </Title>
          <Badge variant={owned ? 'filled' : 'light'}>{ROLE_LABELS[series.role]}</Badge>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {series.description || 'No description'}
        </Text>
        <Text size="xs" c="dimmed">
          Owner: {owned ? 'You' : series.ownerName} · {collaborators(series.memberCount)}
          {manager && series.pendingInviteCount > 0 ? ` · ${series.pendingInviteCount} pending` : ''}
        </Text>
        <Group gap="xs" mt="xs">
          <Button component={Link} to={`/series/${series.id}`} size="xs">
            Open
          </Button>
          {manager ? (
            <Button size="xs" variant="light" leftSection={<IconUserPlus size={14} />} disabled={!canInvite} onClick={() => setInviting(true)}>
              Invite
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconUsers size={14} />}
            aria-expanded={showMembers}
            onClick={() => setShowMembers((v) => !v)}
          >
            {showMembers ? 'Hide members' : 'Members'}
          </Button>
        </Group>
        <Collapse expanded={showMembers}>
          {showMembers ? <MembersPanel series={series} userId={userId} onChanged={onChanged} reloadKey={reloadKey} /> : null}
        </Collapse>
      </Stack>
      {manager ? (
        <InviteDialog
          seriesId={series.id}
          seriesName={series.name}
          opened={inviting}
          onClose={() => setInviting(false)}
          onInvited={() => {
            setReloadKey((k) => k + 1);
            onChanged();
          }}
        />
      ) : null}
    </Card>
  );
}
