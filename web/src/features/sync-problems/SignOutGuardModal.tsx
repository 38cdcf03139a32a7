/**
 * The sign-out warning while the outbox is not empty: the author may stay signed in (and sync
 * first) or sign out anyway (the changes are deleted from this device).
 */
// The shell imports the other Mantine CSS.
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** Text of the sign-out warning (exported for tests). */
export function unsyncedWarning(count: number): string {
  return count === 1 ? '1 unsynced change remains' : `${count} unsynced changes remain`;
}

export interface SignOutGuardModalProps {
  /** Unsynced changes; null while no sign-out waits for an answer. */
  count: number | null;
  /** true: sign out anyway; false: stay signed in. */
  onAnswer: (proceed: boolean) => void;
}

export function SignOutGuardModal({ count, onAnswer }: SignOutGuardModalProps) {
  return (
    <Modal opened={count !== null} onClose={() => onAnswer(false)} title="Sign out?" centered>
      <Stack gap="md">
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={count !== null ? unsyncedWarning(count) : ''}>
          These changes have not reached the server yet. If you sign out now they are deleted from this device. Stay signed
          in and connect to the internet to sync them first.
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onAnswer(false)} data-autofocus>
            Stay signed in
          </Button>
          <Button color="red" onClick={() => onAnswer(true)}>
            Sign out anyway
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
