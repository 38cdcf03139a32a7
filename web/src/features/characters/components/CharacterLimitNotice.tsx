import { Link } from 'react-router';
import { Alert, Button, Group, Progress, Text } from '@mantine/core';
import { IconAlertTriangle, IconLock } from '@tabler/icons-react';
import type { PlanLimitState } from '@/lib/limits';

export const LIMIT_NOTICE_ID = 'character-limit-notice';

/** "8 of 10 characters on the Apprentice plan", and at the limit the upgrade message. */
export function CharacterLimitNotice({ state }: { state: PlanLimitState }) {
  if (!state.warn || state.limit === null) return null;
  const percent = Math.min(100, Math.round((state.count / state.limit) * 100));
  return (
    <Alert
      id={LIMIT_NOTICE_ID}
      color={state.locked ? 'red' : 'yellow'}
      variant="light"
      radius="md"
      mb="lg"
      icon={state.locked ? <IconLock size={18} aria-hidden /> : <IconAlertTriangle size={18} aria-hidden />}
      title={state.usage}
      data-testid="character-limit"
      // The tinted title colours of Mantine's light alerts fall below 4.5:1 on their background.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Progress value={percent} color={state.locked ? 'red' : 'yellow'} size="sm" mb="xs" aria-label={state.usage} />
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">
          {state.locked ? state.message : `You can add ${state.limit - state.count} more ${state.limit - state.count === 1 ? 'character' : 'characters'} to this series on your plan.`}
        </Text>
        <Button component={Link} to="/subscription" size="xs" radius="xl" variant={state.locked ? 'filled' : 'light'}>
          Upgrade
        </Button>
      </Group>
    </Alert>
  );
}
