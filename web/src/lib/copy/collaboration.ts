/**
 * Toasts of the collaboration actions beyond the spec's catalogue (members, roles, links).
 * The spec's own collaboration toasts are COLLABORATION_TOASTS in toasts.ts.
 */
import type { ToastContent } from './toasts';

const ok = (title: string, message?: string): ToastContent => (message === undefined ? { title, variant: 'default' } : { title, message, variant: 'default' });
const fail = (title: string, message: string): ToastContent => ({ title, message, variant: 'destructive' });

export const MEMBER_TOASTS = {
  roleChanged: ok('Role changed'),
  memberRemoved: ok('Member removed', 'They no longer have access to this series.'),
  leftSeries: ok('You left the series', 'It has been removed from this device.'),
  inviteRevoked: ok('Invitation revoked'),
  ownershipTransferred: ok('Series handed over', 'You stay on as an admin.'),
  linkCreated: ok('Invitation link created', 'Copy it now: it works once, for 14 days.'),
  linkCopied: ok('Link copied'),
  memberActionFailed: fail('Error updating members', 'Could not update the members of this series'),
  leaveFailed: fail('Error leaving series', 'Could not leave this series'),
} as const;
