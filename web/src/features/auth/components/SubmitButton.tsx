import { Button, Loader } from '@mantine/core';
import classes from '../auth.module.css';

interface SubmitButtonProps {
  pending: boolean;
  label: string;
  /** Label while the request runs: "Logging in" / "Creating account" (spec 000 §2). */
  pendingLabel: string;
}

/** Submit button with a spinner and its pending label; disabled while a request runs. */
export function SubmitButton({ pending, label, pendingLabel }: SubmitButtonProps) {
  return (
    <Button
      type="submit"
      fullWidth
      size="md"
      radius="md"
      disabled={pending}
      className={classes.submit}
      data-pending={pending || undefined}
      aria-busy={pending || undefined}
      leftSection={pending ? <Loader size={16} color="currentColor" aria-hidden data-testid="submit-spinner" /> : null}
    >
      {pending ? pendingLabel : label}
    </Button>
  );
}
