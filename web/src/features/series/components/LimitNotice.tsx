import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import type { LimitNotice as Notice } from '../model/limits';

/**
 * "2 of 3 books on the Apprentice plan", and at the limit the limit message with an Upgrade link.
 * `inline` keeps it to one line even at the limit: a screen shows at most one limit banner (the
 * Series page's own series count stays a line above the books' banner).
 */
export function LimitNotice({ notice, testId, inline = false }: { notice: Notice; testId?: string; inline?: boolean }) {
  if (!notice.usage && !notice.locked) return null;
  if (!notice.locked || inline) {
    return (
      <Group gap={6} wrap="nowrap" data-testid={testId} data-locked={notice.locked || undefined}>
        {notice.locked ? (
          <IconLock size={16} aria-hidden color="var(--mantine-color-dimmed)" />
        ) : (
          <IconInfoCircle size={16} aria-hidden color="var(--mantine-color-dimmed)" />
        )}
        <Text size="sm" c="dimmed">
          {notice.usage}
          {notice.locked ? ' — limit reached' : ''}
        </Text>
        {notice.locked && notice.canUpgrade ? (
          <Anchor component={Link} to="/subscription" size="sm" fw={600}>
            Upgrade
          </Anchor>
        ) : null}
      </Group>
    );
  }
  return (
    <Alert
      variant="light"
      radius="md"
      icon={<IconLock size={18} aria-hidden />}
      title={notice.usage || 'Limit reached'}
      // The tinted title colours of Mantine's light alerts fall below 4.5:1 on their background.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
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
