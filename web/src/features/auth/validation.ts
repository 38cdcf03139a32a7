/**
 * The account form rules of spec 000 §5, word for word (messages from @chronicler/schema).
 *
 * - 'strict' is /login and /register: username ≥ 3, password ≥ 6, display name ≥ 2, checked on change.
 * - 'auth' is the /auth page: its login tab only requires both fields; its register tab requires a
 *   display name ("Display name is required") and keeps the other rules.
 * Email is optional (docs/spec-differences.md) and checked only when given.
 */
import { MESSAGES, MINIMUMS } from '@chronicler/schema';

export type FormMode = 'strict' | 'auth';

export interface LoginValues {
  username: string;
  password: string;
}

export interface RegisterValues {
  displayName: string;
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export type Errors<T> = Partial<Record<keyof T, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateLoginField(field: keyof LoginValues, values: LoginValues, mode: FormMode): string | undefined {
  const value = values[field];
  if (mode === 'auth') {
    if (field === 'username') return value.trim() === '' ? MESSAGES.auth.usernameRequired : undefined;
    return value === '' ? MESSAGES.auth.passwordRequired : undefined;
  }
  if (field === 'username') return value.trim().length < MINIMUMS.username ? MESSAGES.auth.usernameMin : undefined;
  return value.length < MINIMUMS.password ? MESSAGES.auth.passwordMin : undefined;
}

export function validateRegisterField(
  field: keyof RegisterValues,
  values: RegisterValues,
  mode: FormMode,
): string | undefined {
  switch (field) {
    case 'displayName':
      if (mode === 'auth') return values.displayName.trim() === '' ? MESSAGES.auth.displayNameRequired : undefined;
      return values.displayName.trim().length < MINIMUMS.displayName ? MESSAGES.auth.displayNameMin : undefined;
    case 'username':
      return values.username.trim().length < MINIMUMS.username ? MESSAGES.auth.usernameMin : undefined;
    case 'email': {
      const email = values.email.trim();
      return email !== '' && !EMAIL.test(email) ? MESSAGES.auth.invalidEmail : undefined;
    }
    case 'password':
      return values.password.length < MINIMUMS.password ? MESSAGES.auth.passwordMin : undefined;
    case 'confirmPassword':
      return values.confirmPassword !== values.password ? MESSAGES.auth.passwordsDoNotMatch : undefined;
  }
}

function validateAll<T extends object>(
  values: T,
  fields: readonly (keyof T)[],
  check: (field: keyof T) => string | undefined,
): Errors<T> {
  const errors: Errors<T> = {};
  for (const field of fields) {
    const message = check(field);
    if (message) errors[field] = message;
  }
  return errors;
}

export const LOGIN_FIELDS = ['username', 'password'] as const;
export const REGISTER_FIELDS = ['displayName', 'username', 'email', 'password', 'confirmPassword'] as const;

export function validateLogin(values: LoginValues, mode: FormMode): Errors<LoginValues> {
  return validateAll(values, LOGIN_FIELDS, (f) => validateLoginField(f, values, mode));
}

export function validateRegister(values: RegisterValues, mode: FormMode): Errors<RegisterValues> {
  return validateAll(values, REGISTER_FIELDS, (f) => validateRegisterField(f, values, mode));
}
