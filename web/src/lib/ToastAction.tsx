import { Button, Group } from '@mantine/core';

/** A toast's text with one button beside it ("Undo"), for lib/toast.ts. */
export function ToastAction({ message, label, onClick }: { message: string; label: string; onClick: () => void }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <span>{message}</span>
      <Button size="compact-sm" variant="light" onClick={onClick}>
        {label}
      </Button>
    </Group>
  );
}
