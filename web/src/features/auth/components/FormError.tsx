import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The inline red error box of the account screens. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
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
