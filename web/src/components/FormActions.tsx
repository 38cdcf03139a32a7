import type { ReactNode } from 'react';
import { Button, Group, type MantineSpacing } from '@mantine/core';

interface FormActionsProps {
  onCancel: () => void;
  /** 'Create Event', 'Save Changes'. */
  submitLabel: ReactNode;
  /** The submit button shows a spinner. */
  busy: boolean;
  submitDisabled?: boolean;
  /** Shown at the start of the row (a word count, a Delete button); the buttons stay at the end. */
  leading?: ReactNode;
  mt?: MantineSpacing;
}

/** The Cancel and submit buttons at the foot of a dialog's form. */
export function FormActions({ onCancel, submitLabel, busy, submitDisabled, leading, mt }: FormActionsProps) {
  const buttons = (
    <>
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={busy} disabled={submitDisabled}>
        {submitLabel}
      </Button>
    </>
  );
  if (leading === undefined) {
    return (
      <Group justify="flex-end" gap="sm" mt={mt}>
        {buttons}
      </Group>
    );
  }
  return (
    <Group justify="space-between" gap="sm" mt={mt}>
      {leading}
      <Group gap="sm">{buttons}</Group>
    </Group>
  );
}
