import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red box FormError shows (lazy). */
export default function ErrorAlert({ message }: { message: string }) {
  return (
    <Alert
      variant="light"
      color="red"
      radius="md"
      icon={<IconAlertCircle size={18} aria-hidden />}
      data-testid="form-error"
      styles={{ message: { color: 'var(--mantine-color-text)' } }}
    >
      {message}
    </Alert>
  );
}
