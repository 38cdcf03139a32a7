import { lazy, Suspense } from 'react';

// The alert (Mantine Alert and its icon) loads with the first error: the first paint of /auth has
// none (the first-route JavaScript budget).
const ErrorAlert = lazy(() => import('./ErrorAlert'));

/** The inline red error box of the account screens. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Suspense fallback={<p role="alert">{message}</p>}>
      <ErrorAlert message={message} />
    </Suspense>
  );
}
