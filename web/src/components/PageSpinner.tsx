import { Center, Loader } from '@mantine/core';

/** Full-area spinner for loading users and lazy screens. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center mih="60vh" role="status" aria-live="polite" aria-label={label} data-testid="page-spinner">
      <Loader size="lg" type="dots" aria-hidden />
    </Center>
  );
}
