import { Button, Group, Modal, Text } from '@mantine/core';

interface ConfirmDeleteDialogProps {
  opened: boolean;
  title: string;
  message: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** "Are you sure…?" before a deletion (001 §5). */
export function ConfirmDeleteDialog({ opened, title, message, onCancel, onConfirm }: ConfirmDeleteDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered radius="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onCancel} data-autofocus>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm}>
          Delete
        </Button>
      </Group>
    </Modal>
  );
}
