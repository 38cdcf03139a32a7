import { Badge, Group, Text, type MantineSpacing } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useOnline } from '@/lib/useOnline';

/** While the browser is offline: changes are kept on this device and sync later. Nothing online. */
export function OfflineNote({ mb }: { mb?: MantineSpacing }) {
  const online = useOnline();
  if (online) return null;
  return (
    <Group gap={8} mb={mb} wrap="nowrap" data-testid="offline-note">
      <IconWifiOff size={16} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text size="sm" c="dimmed">
        You are offline. Changes are kept on this device and sync when you reconnect.
      </Text>
    </Group>
  );
}

/** The same as a badge beside a page's subtitle. */
export function OfflineBadge() {
  const online = useOnline();
  if (online) return null;
  return (
    <Badge variant="light" color="gray" leftSection={<IconWifiOff size={12} aria-hidden />} component="span">
      Offline: changes sync when you reconnect
    </Badge>
  );
}
