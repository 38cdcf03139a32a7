/**
 * The core of the toast copy (spec 000 §8/§9): what every screen and the toaster need, and the
 * account toasts of the first screen, kept apart from the whole catalogue (`toasts.ts`, which
 * re-exports all of this) so `/auth` and the app shell download only this (docs/web.md#first-load).
 */

export type ToastVariant = 'default' | 'destructive';

export interface ToastContent {
  readonly title: string;
  /** The toast's text; absent for title-only toasts. */
  readonly message?: string;
  readonly variant: ToastVariant;
}

/** Fallback texts used when an error carries no message of its own. */
export const FALLBACK_MESSAGES = {
  unexpected: 'An unexpected error occurred',
  generic: 'An error occurred',
  invalidCredentials: 'Invalid credentials',
  /** Inline red box on the login page: server message, else this. */
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  paymentSetup: 'An error occurred while setting up the payment process.',
  relationship: 'Failed to create relationship',
  chapterSave: 'An error occurred while saving',
  /** Inline red box on the AI page when suggestions fail to load. */
  aiSuggestionsLoad: 'Failed to load AI suggestions',
  /** Inline red box on the AI page when an analysis fails. */
  analyzeWriting: 'Failed to analyze writing',
  /** Checkout page heading when the payment form cannot be set up. */
  paymentInit: 'Unable to initialize payment',
  collaborativeSeries: 'Failed to create collaborative series',
  sendInvitation: 'Failed to send invitation',
  acceptInvitation: 'Failed to accept invitation',
  declineInvitation: 'Failed to decline invitation',
} as const;

/** The error's own message when it has one (an Error, a string, or `{message}`), else `fallback`. */
export function errorText(error: unknown, fallback: string = FALLBACK_MESSAGES.unexpected): string {
  let text: unknown = error;
  if (error instanceof Error) text = error.message;
  else if (error !== null && typeof error === 'object' && 'message' in error) text = error.message;
  return typeof text === 'string' && text.trim() !== '' ? text : fallback;
}

/** The toast with the error's own message in place of its fallback text. */
export function withError(toast: ToastContent, error: unknown): ToastContent {
  return { ...toast, message: errorText(error, toast.message ?? FALLBACK_MESSAGES.unexpected) };
}

export function okToast(title: string, message?: string): ToastContent {
  return message === undefined ? { title, variant: 'default' } : { title, message, variant: 'default' };
}
export function failToast(title: string, message?: string): ToastContent {
  return message === undefined ? { title, variant: 'destructive' } : { title, message, variant: 'destructive' };
}

// Spec 000 §8: accounts

export const AUTH_TOASTS = {
  loginSuccessful: okToast('Login successful', 'Welcome back'),
  loginFailed: failToast('Login failed', FALLBACK_MESSAGES.invalidCredentials),
  registrationSuccessful: okToast('Registration successful', 'Welcome to Chronicler'),
  registrationFailed: failToast('Registration failed', FALLBACK_MESSAGES.registrationFailed),
  loggedOut: okToast('Logged out'),
  logoutFailed: failToast('Logout failed', 'An error occurred during logout'),
} as const;

// Toaster behaviour (000 §9)

export const TOAST_BEHAVIOUR = {
  maxVisible: 1,
  durationMs: 5000,
  removeDelayMs: 1_000_000,
  swipeDirection: 'right',
  swipeThresholdPx: 50,
  hotkey: ['F8'],
  maxWidthPx: 420,
} as const;
