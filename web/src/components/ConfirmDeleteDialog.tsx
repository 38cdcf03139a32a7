import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

interface ConfirmDeleteDialogProps {
  opened: boolean;
  title: string;
  message: string;
  onCancel: () => void;
  /** May be async; the button shows a spinner meanwhile. */
  onConfirm: () => void | Promise<void>;
}

/** A destructive confirmation; Cancel has the focus so Enter never deletes by accident. */
export function ConfirmDeleteDialog({ opened, title, message, onCancel, onConfirm }: ConfirmDeleteDialogProps) {
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
    <Modal opened={opened} onClose={onCancel} title={title} centered radius="md" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="lg">
        <Text size="sm">{message}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={busy}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
