/**
 * The sign-out warning while the outbox is not empty: the author may stay signed in (and sync
 * first) or sign out anyway (the changes are deleted from this device).
 */
import { lazy } from 'react';
import { OpenedOnce } from '@/lib/first-load';
import type { SignOutGuardModalProps } from './signOutGuardText';

// Mantine's Modal, downloaded and mounted the first time the warning is shown: mounted closed in
// the signed-in shell's first commit, it re-rendered synchronously there (docs/web.md#first-load).
const SignOutGuardDialog = lazy(() => import('./SignOutGuardDialog'));

export { unsyncedWarning, type SignOutGuardModalProps } from './signOutGuardText';

export function SignOutGuardModal({ count, onAnswer }: SignOutGuardModalProps) {
  return <OpenedOnce opened={count !== null}>{(opened) => <SignOutGuardDialog opened={opened} count={count} onAnswer={onAnswer} />}</OpenedOnce>;
}
