import { type ToastContent, errorText } from '@/lib/copy/toasts';

export const EXPORT_TOASTS = {
  exported: (fileName: string, notices: readonly string[] = []): ToastContent => ({ title: 'Export ready', message: [`${fileName} was saved to your downloads.`, ...notices].join(' '), variant: 'default' }),
  failed: (error: unknown): ToastContent => ({ title: 'Export failed', message: errorText(error, 'The export could not be made'), variant: 'destructive' }),
  profileSaved: { title: 'Export profile saved', message: 'These settings will be used the next time you export this series.', variant: 'default' } as ToastContent,
  profileFailed: (error: unknown): ToastContent => ({ title: 'Profile not saved', message: errorText(error, 'The profile could not be saved'), variant: 'destructive' }),
} as const;
