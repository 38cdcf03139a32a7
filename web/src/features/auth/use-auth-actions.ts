import { useCallback, useRef, useState } from 'react';
import { AUTH_TOASTS, FALLBACK_MESSAGES, withError } from '@/lib/copy/toast-core';
import { isApiError } from '@/lib/api';
import { login, register, type LoginInput, type RegisterInput, type User } from '@/lib/session';
import { toast } from '@/lib/toast';

/** Inline text for a failed request: the server's message, else `fallback`, else the generic text. */
function inlineMessage(error: unknown, fallback: string): string {
  if (isApiError(error)) return error.serverMessage ?? fallback;
  return FALLBACK_MESSAGES.unexpected;
}

/**
 * One request at a time: a second submit while the first runs is ignored (spec 000 §2: double
 * submission is blocked).
 */
function useSingleFlight() {
  const running = useRef(false);
  const [pending, setPending] = useState(false);
  const run = useCallback(async <R,>(task: () => Promise<R>): Promise<R | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setPending(true);
    try {
      return await task();
    } finally {
      running.current = false;
      setPending(false);
    }
  }, []);
  return { pending, run };
}

export function useLogin(onSuccess: (user: User) => void) {
  const { pending, run } = useSingleFlight();
  const [error, setError] = useState<string | null>(null);
  const submit = useCallback(
    (input: LoginInput) =>
      run(async () => {
        setError(null);
        try {
          const user = await login({ username: input.username.trim(), password: input.password });
          toast.show(AUTH_TOASTS.loginSuccessful);
          onSuccess(user);
        } catch (err) {
          setError(inlineMessage(err, FALLBACK_MESSAGES.loginFailed));
          toast.show(withError(AUTH_TOASTS.loginFailed, isApiError(err) ? err.serverMessage : undefined));
        }
      }),
    [run, onSuccess],
  );
  return { submit, pending, error };
}

export function useRegister(onSuccess: (user: User | null) => void) {
  const { pending, run } = useSingleFlight();
  const [error, setError] = useState<string | null>(null);
  const submit = useCallback(
    (input: RegisterInput) =>
      run(async () => {
        setError(null);
        try {
          const user = await register(input);
          toast.show(AUTH_TOASTS.registrationSuccessful);
          onSuccess(user);
        } catch (err) {
          setError(inlineMessage(err, FALLBACK_MESSAGES.registrationFailed));
          toast.show(withError(AUTH_TOASTS.registrationFailed, isApiError(err) ? err.serverMessage : undefined));
        }
      }),
    [run, onSuccess],
  );
  return { submit, pending, error };
}
