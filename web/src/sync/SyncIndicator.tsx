/**
 * A small sync indicator bound to the status store: online/offline, "N unsynced changes",
 * "Last synced …", and the problems panel in a popover. (The layout's own indicator lives in
 * components/SyncIndicator.tsx; it can render <SyncProblemsPanel/> for the same list.)
 */
import { useEffect, useState } from 'react';
import { Badge, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCloudCheck, IconCloudOff, IconCloudUpload } from '@tabler/icons-react';
import { SyncProblemsPanel } from './SyncProblemsPanel.tsx';
import { type SyncStatusStore, syncStatus, useSyncStatus } from './status.ts';

export function unsyncedChangesLabel(count: number): string {
  return count === 1 ? '1 unsynced change' : `${count} unsynced changes`;
}

export function lastSyncedLabel(at: number | null, now: number): string {
  if (at === null) return 'Not synced yet';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'Last synced just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `Last synced ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `Last synced ${hours} h ago`;
  return `Last synced ${new Date(at).toLocaleDateString()}`;
}

function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

export function SyncIndicator({ store = syncStatus }: { store?: SyncStatusStore }) {
  const online = useSyncStatus((s) => s.online, store);
  const pendingCount = useSyncStatus((s) => s.pendingCount, store);
  const syncing = useSyncStatus((s) => s.syncing, store);
  const lastSyncedAt = useSyncStatus((s) => s.lastSyncedAt, store);
  const problems = useSyncStatus((s) => s.deadLetters.length + (s.authRequired || (s.lastError && s.lastError.kind !== 'network' && s.lastError.kind !== 'rejected') ? 1 : 0), store);
  const now = useNow(30_000);

  const color = problems > 0 ? 'orange' : !online ? 'gray' : pendingCount > 0 ? 'blue' : 'teal';
  const Icon = problems > 0 ? IconAlertTriangle : !online ? IconCloudOff : pendingCount > 0 ? IconCloudUpload : IconCloudCheck;
  const label = pendingCount > 0 ? unsyncedChangesLabel(pendingCount) : syncing ? 'Syncing' : online ? 'Online' : 'Offline';
  const description = `${online ? 'Online' : 'Offline'}, ${pendingCount > 0 ? unsyncedChangesLabel(pendingCount) : 'all changes synced'}${problems > 0 ? `, ${problems} problem${problems === 1 ? '' : 's'}` : ''}`;

  return (
    <Popover width={360} withArrow shadow="md" position="bottom-end">
      <Popover.Target>
        <UnstyledButton aria-label={`Sync status: ${description}`} data-testid="sync-status">
          <Badge variant="light" color={color} leftSection={<Icon size={14} aria-hidden />} styles={{ root: { textTransform: 'none' } }}>
            {label}
            {problems > 0 ? ` · ${problems}` : ''}
          </Badge>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text size="sm" fw={700}>
            {online ? 'Online' : 'Offline — your work is kept on this device'}
          </Text>
          <Text size="sm">{pendingCount > 0 ? unsyncedChangesLabel(pendingCount) : 'All changes synced'}</Text>
          <Text size="xs" c="dimmed">
            {lastSyncedLabel(lastSyncedAt, now)}
          </Text>
          <SyncProblemsPanel store={store} />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
