/**
 * Toasts (spec 000 §8/§9): at most one visible, 5000 ms by default, swipe right to dismiss, F8
 * focuses the region, 420 px wide at most. The texts come from the catalogue `TOASTS` in
 * @chronicler/schema; failures are styled destructive. The region itself is `<ToastRegion/>`.
 *
 *   toast.success(TOASTS.loginSuccessful)
 *   toast.error(withError(TOASTS.loginFailed, error))
 *   toast.show(anyToastContent)   // picks the style from its `variant`
 *   await toastOutcome(() => mutators.books.delete(id), TOASTS.bookDeleted, TOASTS.bookDeleteFailed)
 */
import { createElement } from 'react';
import { notifications } from '@mantine/notifications';
import { TOAST_BEHAVIOUR, withError, type ToastContent } from '@/lib/copy/toast-core';
import classes from './toast.module.css';
import { ToastAction } from './ToastAction';

export interface ToastInput {
  title: string;
  message?: string | undefined;
  /** Milliseconds before it closes; false keeps it until dismissed. Default 5000. */
  duration?: number | false;
  /** One button in the toast ("Undo"): clicking it closes the toast and runs `onClick`. */
  action?: { label: string; onClick: () => void } | undefined;
}

const PENDING_KEY = 'chronicler:pending-toast';
let counter = 0;

function display(input: ToastInput, destructive: boolean): string {
  counter += 1;
  // One toast at a time (000 §9): the newest replaces the one on screen instead of queueing behind it.
  notifications.clean();
  const id = `toast-${Date.now().toString(36)}-${counter}`;
  notifications.show({
    id,
    title: input.title,
    // Mantine requires a message; a title-only toast shows its title as the body text.
    message: input.action ? withAction(id, input.message ?? '', input.action) : (input.message ?? ''),
    autoClose: input.duration ?? TOAST_BEHAVIOUR.durationMs,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': 'Dismiss notification' },
    color: destructive ? 'red' : undefined,
    className: destructive ? classes.destructive : classes.toast,
    'data-toast-id': id,
    'data-variant': destructive ? 'destructive' : 'default',
    'data-no-message': input.message ? undefined : 'true',
  });
  return id;
}

function withAction(id: string, message: string, action: NonNullable<ToastInput['action']>) {
  const run = () => {
    notifications.hide(id);
    action.onClick();
  };
  return createElement(ToastAction, { message, label: action.label, onClick: run });
}

export const toast = {
  success: (input: ToastInput) => display(input, false),
  info: (input: ToastInput) => display(input, false),
  error: (input: ToastInput) => display(input, true),
  /** A catalogue entry, styled by its own variant. */
  show: (content: ToastContent | (ToastInput & { variant?: 'default' | 'destructive' })) =>
    display(content, content.variant === 'destructive'),
  dismiss: (id: string) => notifications.hide(id),
  clear: () => notifications.clean(),
  /**
   * Shows a toast after the next page load (sign-out reloads the page, and a toast shown just before
   * the reload would vanish with it).
   */
  afterReload: (content: ToastContent | (ToastInput & { variant?: 'default' | 'destructive' })) => {
    try {
      window.sessionStorage.setItem(PENDING_KEY, JSON.stringify(content));
    } catch {
      /* no session storage: nothing to carry over */
    }
  },
};

/**
 * Runs a write and toasts how it went: `done` when it succeeded; when it threw, `failed` with the
 * error's reason as its message (or `failed(error)`). Resolves whether it succeeded.
 */
export async function toastOutcome(
  write: () => Promise<unknown>,
  done: ToastContent,
  failed: ToastContent | ((error: unknown) => ToastContent),
): Promise<boolean> {
  try {
    await write();
  } catch (error) {
    toast.show(typeof failed === 'function' ? failed(error) : withError(failed, error));
    return false;
  }
  toast.show(done);
  return true;
}

/** Saves an edit with `toastOutcome`; an edit that changes no field sends nothing and counts as saved. */
export function saveChanges<B extends object>(
  body: B,
  write: (body: B) => Promise<unknown>,
  done: ToastContent,
  failed: ToastContent | ((error: unknown) => ToastContent),
): Promise<boolean> {
  if (Object.keys(body).length === 0) return Promise.resolve(true);
  return toastOutcome(() => write(body), done, failed);
}

/** Shows the toast saved by `toast.afterReload`, once. Called at start-up. */
export function flushPendingToast(): void {
  let raw: string | null = null;
  try {
    raw = window.sessionStorage.getItem(PENDING_KEY);
    window.sessionStorage.removeItem(PENDING_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const content = JSON.parse(raw) as ToastContent;
    if (typeof content.title === 'string') toast.show(content);
  } catch {
    /* ignore a malformed entry */
  }
}
