import { Link } from 'react-router';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import type { LimitNotice as Notice } from '../model/limits';

/** "2 of 3 books on the Apprentice plan", and at the limit the upgrade message with a link. */
export function LimitNotice({ notice, testId }: { notice: Notice; testId?: string }) {
  if (!notice.usage && !notice.locked) return null;
  if (!notice.locked) {
    return (
      <Group gap={6} wrap="nowrap" data-testid={testId}>
        <IconInfoCircle size={16} aria-hidden color="var(--mantine-color-dimmed)" />
        <Text size="sm" c="dimmed">
          {notice.usage}
        </Text>
      </Group>
    );
  }
  return (
    <Alert
      variant="light"
      radius="md"
      icon={<IconLock size={18} aria-hidden />}
      title={notice.usage ? `${notice.usage} — limit reached` : 'Limit reached'}
      data-testid={testId}
    >
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm">{notice.message}</Text>
        {notice.canUpgrade ? (
          <Button component={Link} to="/subscription" size="xs" radius="xl" variant="filled">
            Upgrade
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
