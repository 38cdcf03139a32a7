import { useState } from 'react';
import { Button, Group, Stack, Text, type MantineRadius } from '@mantine/core';
import { Modal } from '@/lib/first-load';

interface ConfirmDeleteDialogProps {
  opened: boolean;
  title: string;
  message: string;
  /** What else the delete does, said after the message ('' or absent: nothing). */
  details?: string;
  /** The destructive button's label (default 'Delete'). */
  confirmLabel?: string;
  radius?: MantineRadius;
  onCancel: () => void;
  /** May be async; the button shows a spinner meanwhile. */
  onConfirm: () => void | Promise<void>;
}

/** A destructive confirmation ("Are you sure…?", 001 §5); Cancel has the focus so Enter never deletes by accident. */
export function ConfirmDeleteDialog({ opened, title, message, details, confirmLabel = 'Delete', radius = 'md', onCancel, onConfirm }: ConfirmDeleteDialogProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered radius={radius} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="lg">
        <Stack gap="xs">
          <Text size="sm">{message}</Text>
          {details ? (
            <Text size="sm" c="dimmed" data-testid="confirm-delete-details">
              {details}
            </Text>
          ) : null}
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
