import { useSyncExternalStore } from 'react';
import { Badge, ThemeIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconCloudCheck, IconCloudOff } from '@tabler/icons-react';

/*
 * SLOT: the sync engine replaces this stub with its own indicator (unsynced count, syncing,
 * conflicts). The layout renders whatever `SyncIndicator` exports from here; keep the name and the
 * `compact` prop. For now it only shows online/offline from `navigator.onLine` events.
 */

function subscribe(callback: () => void) {
  window.addEventListener('online', callback);
  window.addEventListener('offline', callback);
  return () => {
    window.removeEventListener('online', callback);
    window.removeEventListener('offline', callback);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

export function SyncIndicator({ compact = false }: { compact?: boolean }) {
  const online = useOnline();
  const label = online ? 'Online' : 'Offline';
  const hint = online ? 'Connected' : 'Offline — your work is kept on this device';
  const Icon = online ? IconCloudCheck : IconCloudOff;
  if (compact) {
    return (
      <Tooltip label={hint} withArrow position="right">
        <ThemeIcon
          data-testid="sync-indicator"
          data-online={online}
          role="status"
          variant="light"
          color={online ? 'teal' : 'gray'}
          radius="xl"
          size="md"
        >
          <Icon size={16} stroke={2} aria-hidden />
          <VisuallyHidden>{label}</VisuallyHidden>
        </ThemeIcon>
      </Tooltip>
    );
  }
  return (
    <Tooltip label={hint} withArrow>
      <Badge
        data-testid="sync-indicator"
        data-online={online}
        role="status"
        variant="light"
        color={online ? 'teal' : 'gray'}
        radius="sm"
        size="md"
        leftSection={<Icon size={14} stroke={2} aria-hidden />}
        styles={{ root: { textTransform: 'none' } }}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
