import { useEffect, useState } from 'react';
import { Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useLiveQuery } from 'dexie-react-hooks';
import { formatBytes } from '@chronicler/schema/media';
import { PICTURE_CACHE_BUDGET_BYTES } from '@chronicler/sync-client';
import { isNetworkError } from '@/lib/api';
import { useOptionalSync } from '@/lib/sync';
import { type MediaUsage, fetchMediaUsage } from './api';

type Load = { status: 'loading' } | { status: 'failed'; offline: boolean } | { status: 'ready'; usage: MediaUsage };

/**
 * The pictures' storage (docs/decisions/0023-pictures-on-the-device.md): what the author's pictures
 * use of the plan's cloud storage (GET /api/media/usage), and what this device keeps of them.
 */
export function StorageCard() {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const db = useOptionalSync()?.db ?? null;
  const onDevice = useLiveQuery(async () => {
    if (!db) return 0;
    let total = 0;
    await db.pictures.each((r) => {
      total += r.bytes;
    });
    return total;
  }, [db]);

  useEffect(() => {
    let live = true;
    fetchMediaUsage().then(
      (usage) => live && setLoad({ status: 'ready', usage }),
      (error: unknown) => live && setLoad({ status: 'failed', offline: isNetworkError(error) }),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="storage-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="storage-title">
          Storage
        </Title>
        {load.status === 'loading' ? <Loader size="sm" aria-label="Loading storage use" /> : null}
        {load.status === 'failed' ? (
          <Text size="sm" c="dimmed">
            {load.offline ? 'Connect to the internet to see how much storage your pictures use.' : 'Storage use cannot be shown right now. Try again later.'}
          </Text>
        ) : null}
        {load.status === 'ready' ? <Usage usage={load.usage} /> : null}
        {onDevice !== undefined ? (
          <Text size="xs" c="dimmed" data-testid="pictures-on-device">
            On this device: {formatBytes(onDevice)} of pictures (up to {formatBytes(PICTURE_CACHE_BUDGET_BYTES)} kept for offline use; pictures not yet uploaded are always kept).
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Usage({ usage }: { usage: MediaUsage }) {
  const percent = usage.allowanceBytes > 0 ? Math.min(100, (usage.usedBytes / usage.allowanceBytes) * 100) : 100;
  const label = `${formatBytes(usage.usedBytes)} of ${formatBytes(usage.allowanceBytes)} used`;
  return (
    <Stack gap={6}>
      <Text size="sm" data-testid="storage-used">
        Pictures: {label}
      </Text>
      <Progress value={percent} color={percent >= 90 ? 'red' : undefined} aria-label={`Cloud storage: ${label}`} />
      <Text size="xs" c="dimmed">
        Each picture may be up to {formatBytes(usage.perPictureBytes)}.
      </Text>
    </Stack>
  );
}
