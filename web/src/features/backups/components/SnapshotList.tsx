import { useState } from 'react';
import { Alert, Badge, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconCloudUpload, IconDownload, IconRestore } from '@tabler/icons-react';
import { BACKUP_LABELS, type BackupSnapshotSummary, type RestoreResult } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { api } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useSnapshots } from '../hooks/useSnapshots';
import { formatBytes } from '../model/base64';
import { BACKUP_TOASTS, failureText } from '../model/toasts';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const REASONS: Record<BackupSnapshotSummary['reason'], string> = { manual: 'Back up now', weekly: 'Weekly', daily: 'Daily', realtime: 'Real-time' };

/** The snapshots the server keeps: Back up now, download, restore. */
export function SnapshotList({ online }: { online: boolean }) {
  const { state, reload } = useSnapshots();
  const [making, setMaking] = useState(false);
  const [restoring, setRestoring] = useState<BackupSnapshotSummary | null>(null);
  const [busy, setBusy] = useState(false);

  async function backUpNow() {
    setMaking(true);
    try {
      await api.post('/api/backups');
      toast.show(BACKUP_TOASTS.snapshotMade);
      reload();
    } catch (error) {
      toast.show(BACKUP_TOASTS.snapshotFailed(error));
    } finally {
      setMaking(false);
    }
  }

  async function restore(snapshot: BackupSnapshotSummary) {
    setBusy(true);
    try {
      const result = await api.post<RestoreResult>(`/api/backups/${snapshot.id}/restore`, {});
      toast.show(BACKUP_TOASTS.restored(result));
      setRestoring(null);
    } catch (error) {
      toast.show(BACKUP_TOASTS.restoreFailed(error));
    } finally {
      setBusy(false);
    }
  }

  if (state.status === 'loading') return <Skeleton height={120} radius="md" aria-label="Loading backups" />;
  if (state.status === 'error') {
    return (
      <Alert color={online ? 'red' : 'gray'} variant="light" title={online ? 'Backups could not be loaded' : 'You are offline'}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{online ? failureText(state.error, 'The list of backups could not be loaded.') : 'The backups kept on the server are listed when you are back online.'}</Text>
          <Button size="xs" variant="default" onClick={reload}>Try again</Button>
        </Stack>
      </Alert>
    );
  }
  const { frequency, keep, snapshots } = state.list;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed">
          Your plan backs up <Badge variant="light">{BACKUP_LABELS[frequency]}</Badge> when something changed; the last {keep} backups are kept.
        </Text>
        <Button leftSection={<IconCloudUpload size={16} aria-hidden />} loading={making} disabled={!online} onClick={() => void backUpNow()}>
          Back up now
        </Button>
      </Group>
      {snapshots.length === 0 ? (
        <Text size="sm" c="dimmed" fs="italic">No server backups yet. The first one is made soon after you write, or now with Back up now.</Text>
      ) : (
        <Table striped highlightOnHover aria-label="Server backups">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Made</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {snapshots.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>{when.format(new Date(s.createdAt))}</Table.Td>
                <Table.Td>{REASONS[s.reason]}</Table.Td>
                <Table.Td>{formatBytes(s.sizeBytes)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" component="a" href={`/api/backups/${s.id}`} download leftSection={<IconDownload size={14} aria-hidden />} disabled={!online}>
                      Download
                    </Button>
                    <Button size="xs" variant="subtle" leftSection={<IconRestore size={14} aria-hidden />} disabled={!online} onClick={() => setRestoring(s)}>
                      Restore
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={restoring !== null} onClose={() => setRestoring(null)} title="Restore this backup?">
        <Stack gap="md">
          <Text size="sm">
            Series in the backup that are no longer in your account come back as they were on {restoring ? when.format(new Date(restoring.createdAt)) : ''}. Series you still have are left as they are.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRestoring(null)}>Cancel</Button>
            <Button loading={busy} onClick={() => restoring && void restore(restoring)}>Restore</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
