import { isNetworkError, serverMessageOf } from '@/lib/api';
import type { ToastContent } from '@/lib/copy/toasts';

const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

/** The toast with the server's own sentence (`{message}`) in place of its fallback text. */
export function withServerMessage(toast: ToastContent, error: unknown): ToastContent {
  const fallback = toast.message ?? '';
  return { ...toast, message: isNetworkError(error) ? UNREACHABLE : serverMessageOf(error, fallback) };
}
