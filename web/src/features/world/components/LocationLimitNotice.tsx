import { Link } from 'react-router';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconLock } from '@tabler/icons-react';
import type { PlanLimitState } from '@/lib/limits';

/**
 * The locations-per-series count on a limited plan: a quiet line, a warning near the limit, and at
 * the limit the upgrade message with a link to the plans.
 */
export function LocationLimitNotice({ state }: { state: PlanLimitState }) {
  if (state.limit === null) return null;
  if (state.locked) {
    return (
      <Alert variant="light" radius="md" icon={<IconLock size={18} aria-hidden />} title={`${state.usage} — limit reached`} data-testid="location-limit">
        <Group justify="space-between" align="center" gap="sm">
          <Text size="sm">{state.message}</Text>
          {state.requiredTier ? (
            <Button component={Link} to="/subscription" size="xs" radius="xl">
              Upgrade
            </Button>
          ) : null}
        </Group>
      </Alert>
    );
  }
  if (state.warn) {
    const left = state.limit - state.count;
    return (
      <Alert variant="light" color="yellow" radius="md" icon={<IconAlertTriangle size={18} aria-hidden />} title={state.usage} data-testid="location-limit">
        <Text size="sm">
          {left === 1 ? 'You can add 1 more location' : `You can add ${left} more locations`} to this series on your plan. Upgrade for
          unlimited locations.
        </Text>
      </Alert>
    );
  }
  return (
    <Group gap={6} wrap="nowrap" data-testid="location-limit">
      <IconInfoCircle size={16} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text size="sm" c="dimmed">
        {state.usage}
      </Text>
    </Group>
  );
}
