import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { BACKUP_MESSAGES, MAX_BACKUP_BYTES, type RestoreResult } from '@chronicler/schema';
import { api } from '@/lib/api';
import { toast } from '@/lib/toast';
import { toBase64 } from '../model/base64';
import { BACKUP_TOASTS, failureText } from '../model/toasts';

/** Restore a downloaded archive (.zip) into this account. */
export function RestorePanel({ online }: { online: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true; result: RestoreResult } | { ok: false; message: string } | null>(null);

  async function restore(file: File) {
    setOutcome(null);
    if (file.size > MAX_BACKUP_BYTES) {
      setOutcome({ ok: false, message: BACKUP_MESSAGES.tooLarge });
      return;
    }
    setBusy(true);
    try {
      const archive = toBase64(new Uint8Array(await file.arrayBuffer()));
      const result = await api.post<RestoreResult>('/api/backup/restore', { archive });
      setOutcome({ ok: true, result });
      toast.show(BACKUP_TOASTS.restored(result));
    } catch (error) {
      setOutcome({ ok: false, message: failureText(error, 'The backup could not be restored') });
      toast.show(BACKUP_TOASTS.restoreFailed(error));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Restore a Chronicler backup (.zip) into this account — from this server or another. Series already here are left as they are; nothing is duplicated.
      </Text>
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip"
        hidden
        data-testid="restore-file"
        aria-label="Backup archive to restore"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void restore(file);
        }}
      />
      <Group>
        <Button leftSection={<IconUpload size={16} aria-hidden />} variant="default" loading={busy} disabled={!online} onClick={() => input.current?.click()}>
          Restore from file…
        </Button>
      </Group>
      {outcome?.ok === true ? (
        <Alert color="green" variant="light" title="Backup restored">
          {outcome.result.series.length === 0 ? 'The archive held no series.' : `Restored: ${outcome.result.series.join(', ')}. `}
          <Anchor component={Link} to="/series">Open your series</Anchor>
        </Alert>
      ) : null}
      {outcome?.ok === false ? (
        <Alert color="red" variant="light" title="Restore failed" role="alert">
          {outcome.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
