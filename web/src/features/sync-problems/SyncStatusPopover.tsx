// The problems list (DeadLetterList) scrolls.
import '@mantine/core/styles/ScrollArea.layer.css';
import { Group, Stack, Text, type FloatingPosition } from '@mantine/core';
import { IconLogin } from '@tabler/icons-react';
import { AttachTarget, Popover, type PopoverLayerProps } from '@/lib/first-load';
import { useOptionalSync } from '@/lib/sync';
import { type IndicatorState, syncTimeLine, unsyncedLabel, useTick } from './syncIndicatorState';
import { DeadLetterList } from './SyncProblemsPanel';

/** The sync indicator's status panel (SyncIndicator), loaded and mounted when first opened. */
export default function SyncStatusPopover({ opened, onChange, target, id, position, state }: PopoverLayerProps & { position: FloatingPosition; state: IndicatorState }) {
  return (
    <Popover id={id} opened={opened} onChange={onChange} width={340} position={position} withArrow shadow="md" trapFocus>
      <Popover.Target>
        <AttachTarget target={target} />
      </Popover.Target>
      <Popover.Dropdown>
        <StatusPanel state={state} />
      </Popover.Dropdown>
    </Popover>
  );
}

function StatusPanel({ state }: { state: IndicatorState }) {
  const sync = useOptionalSync();
  const now = useTick(30_000);
  return (
    <Stack gap="xs" maw={320}>
      <Text size="sm" fw={700}>
        {state.online ? 'Online' : 'Offline — your work is kept on this device'}
      </Text>
      <Text size="sm">{state.pendingCount > 0 ? unsyncedLabel(state.pendingCount) : 'All changes synced'}</Text>
      <Text size="xs" c="dimmed">
        {syncTimeLine(state, now)}
      </Text>
      {state.authRequired && (
        <Group gap="xs" wrap="nowrap">
          <IconLogin size={16} aria-hidden />
          <Text size="sm">Please sign in again to sync your changes. They are kept on this device.</Text>
        </Group>
      )}
      {state.lastError && state.lastError.kind !== 'auth' && (
        <Text size="sm" c={state.lastError.kind === 'network' ? 'dimmed' : 'orange'}>
          {state.lastError.message}
        </Text>
      )}
      <DeadLetterList deadLetters={state.deadLetters} db={sync?.db ?? null} />
    </Stack>
  );
}

