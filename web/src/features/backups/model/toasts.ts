import type { RestoreResult } from '@chronicler/schema';
import { isNetworkError, serverMessageOf } from '@/lib/api';
import type { ToastContent } from '@/lib/copy/toasts';

/** The server's own words (the spec's messages), else a plain fallback. */
export function failureText(error: unknown, fallback: string): string {
  if (isNetworkError(error)) return 'The server could not be reached. Check your connection and try again.';
  return serverMessageOf(error, fallback);
}

function restoredLine(result: RestoreResult): string {
  const series = result.series.length === 1 ? `“${result.series[0]}”` : `${result.series.length} series`;
  const restored = Object.values(result.counts).reduce((n, c) => n + c.restored, 0);
  return restored === 0 ? `Everything in ${series} was already here.` : `${series} restored to your account.`;
}

export const BACKUP_TOASTS = {
  restored: (result: RestoreResult): ToastContent => ({ title: 'Backup restored', message: restoredLine(result), variant: 'default' }),
  restoreFailed: (error: unknown): ToastContent => ({ title: 'Restore failed', message: failureText(error, 'The backup could not be restored'), variant: 'destructive' }),
  snapshotMade: { title: 'Backup saved', message: 'A backup of all your series is kept on the server.', variant: 'default' } as ToastContent,
  snapshotFailed: (error: unknown): ToastContent => ({ title: 'Backup failed', message: failureText(error, 'The backup could not be made'), variant: 'destructive' }),
} as const;
