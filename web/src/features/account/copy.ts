/** The account screen's texts (not in the spec: the screen came with the server's sessions routes). */
import { failToast as fail, okToast as ok } from '@/lib/copy/toast-core';

export const ACCOUNT_COPY = {
  title: 'Account',
  subtitle: 'Your password and the devices signed in to your account',
  passwordTitle: 'Change password',
  passwordHelp: 'Changing it signs you out on every other device.',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  currentPasswordRequired: 'Current password is required',
  changePassword: 'Change password',
  sessionsTitle: 'Signed-in devices',
  sessionsHelp: 'Sign out a device you no longer use, or one you do not recognise.',
  thisDevice: 'This device',
  signOutDevice: 'Sign out',
  signOutOthers: 'Sign out other devices',
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereTitle: 'Sign out everywhere?',
  signOutEverywhereMessage: 'Every device, this one included, will need to sign in again.',
  noOtherSessions: 'No other device is signed in.',
  loadFailed: 'Could not load your devices',
  offline: 'You are offline. Your devices can be listed when the connection returns.',
  retry: 'Try again',
} as const;

export const ACCOUNT_TOASTS = {
  passwordChanged: ok('Password changed', 'Your other devices have been signed out.'),
  passwordChangeFailed: fail('Password not changed', 'An unexpected error occurred'),
  sessionEnded: ok('Device signed out'),
  othersSignedOut: (count: number) => ok('Other devices signed out', count === 1 ? '1 device was signed out.' : `${count} devices were signed out.`),
  sessionEndFailed: fail('Sign-out failed', 'An unexpected error occurred'),
  offline: fail('You are offline', 'Try again when the connection returns.'),
} as const;
