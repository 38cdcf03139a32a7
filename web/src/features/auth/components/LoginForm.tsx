import { useCallback } from 'react';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconLock, IconUser } from '@tabler/icons-react';
import type { User } from '@/lib/session';
import { useLogin } from '../use-auth-actions';
import { useValidatedForm } from '../use-validated-form';
import { LOGIN_FIELDS, validateLoginField, type FormMode, type LoginValues } from '../validation';
import { FormError } from './FormError';
import { SubmitButton } from './SubmitButton';

interface LoginFormProps {
  mode: FormMode;
  onSuccess: (user: User) => void;
  /** Show the inline red error box (the /login page). */
  inlineErrors?: boolean;
}

export function LoginForm({ mode, onSuccess, inlineErrors = true }: LoginFormProps) {
  const validateField = useCallback(
    (field: keyof LoginValues, values: LoginValues) => validateLoginField(field, values, mode),
    [mode],
  );
  const form = useValidatedForm<LoginValues>({
    initial: { username: '', password: '' },
    fields: LOGIN_FIELDS,
    validateField,
    validateOnChange: mode === 'strict',
  });
  const { submit, pending, error } = useLogin(onSuccess);

  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate aria-label="Login" data-testid="login-form">
      <Stack gap="md">
        {inlineErrors ? <FormError message={error} /> : null}
        <TextInput
          name="username"
          label="Username"
          placeholder="Your username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          leftSection={<IconUser size={16} aria-hidden />}
          value={form.values.username}
          onChange={(e) => form.setField('username', e.currentTarget.value)}
          error={form.errors.username}
          readOnly={pending}
        />
        <PasswordInput
          name="password"
          label="Password"
          placeholder="Your password"
          autoComplete="current-password"
          leftSection={<IconLock size={16} aria-hidden />}
          value={form.values.password}
          onChange={(e) => form.setField('password', e.currentTarget.value)}
          error={form.errors.password}
          readOnly={pending}
        />
        <SubmitButton pending={pending} label="Login" pendingLabel="Logging in" />
      </Stack>
    </form>
  );
}
