/** The sign-out warning's dialog (SignOutGuardModal), loaded and mounted when first shown. */
// The shell imports the other Mantine CSS.
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Modal } from '@/lib/first-load';
import { type SignOutGuardModalProps, unsyncedWarning } from './signOutGuardText';

export default function SignOutGuardDialog({ opened, count, onAnswer }: SignOutGuardModalProps & { opened: boolean }) {
  return (
    <Modal opened={opened} onClose={() => onAnswer(false)} title="Sign out?" centered>
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
