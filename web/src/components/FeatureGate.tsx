import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Box, Button, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import {
  gateState,
  type FeatureName,
  type LimitName,
  type PlanName,
} from '@chronicler/schema';
import { featureLockedToast } from '@/lib/copy/toasts';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import classes from './FeatureGate.module.css';

export interface FeatureGateProps {
  /** A plan feature flag the area needs. */
  feature?: FeatureName;
  /** The lowest tier that may use the area. */
  requiredTier?: PlanName;
  /** A plan limit the area counts against, with `count` the author's current number of items. */
  limit?: LimitName;
  count?: number;
  /** Show the "Feature Locked" toast when the area renders locked. */
  toastOnLocked?: boolean;
  children: ReactNode;
}

/**
 * A locked area (spec 000 §2 "Feature gate", §4): the children dimmed and unreachable under an
 * overlay with a lock, the tier message and an Upgrade button to /subscription. Open areas render
 * their children untouched. The server enforces the same table
 * (docs/server.md#plan-limits-and-feature-gates).
 */
export function FeatureGate({ feature, requiredTier, limit, count, toastOnLocked = false, children }: FeatureGateProps) {
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const state = gateState({ plan, feature, requiredTier, limit, count });
  const toasted = useRef(false);

  useEffect(() => {
    if (!state.locked || !toastOnLocked || toasted.current) return;
    toasted.current = true;
    toast.show(
      state.requiredTier ? featureLockedToast(state.requiredTier) : { title: 'Feature Locked', message: state.message },
    );
  }, [state.locked, state.requiredTier, state.message, toastOnLocked]);

  if (!state.locked) return <>{children}</>;

  return (
    <Box className={classes.root} data-locked="true">
      <div className={classes.content} inert aria-hidden="true">
        {children}
      </div>
      <div className={classes.overlay}>
        <Paper withBorder shadow="md" radius="lg" p="lg" maw={380} className={classes.card}>
          <Stack align="center" gap="sm">
            <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
              <IconLock size={26} stroke={1.75} />
            </ThemeIcon>
            <Text fw={700}>Feature Locked</Text>
            <Text size="sm" c="dimmed" ta="center">
              {state.message}
            </Text>
            {state.requiredTier ? (
              <Button component={Link} to="/subscription" radius="xl">
                Upgrade
              </Button>
            ) : null}
          </Stack>
        </Paper>
      </div>
    </Box>
  );
}
