import { useCallback, type ChangeEvent } from 'react';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAt, IconLock, IconUser, IconUserCircle } from '@tabler/icons-react';
import type { User } from '@/lib/session';
import { useRegister } from '../use-auth-actions';
import { useValidatedForm } from '../use-validated-form';
import { REGISTER_FIELDS, validateRegisterField, type FormMode, type RegisterValues } from '../validation';
import { FormError } from './FormError';
import { SubmitButton } from './SubmitButton';

interface RegisterFormProps {
  mode: FormMode;
  onSuccess: (user: User | null) => void;
  inlineErrors?: boolean;
}

const DEPENDENTS = { password: ['confirmPassword'] } as const;

export function RegisterForm({ mode, onSuccess, inlineErrors = true }: RegisterFormProps) {
  const validateField = useCallback(
    (field: keyof RegisterValues, values: RegisterValues) => validateRegisterField(field, values, mode),
    [mode],
  );
  const form = useValidatedForm<RegisterValues>({
    initial: { displayName: '', username: '', email: '', password: '', confirmPassword: '' },
    fields: REGISTER_FIELDS,
    validateField,
    validateOnChange: mode === 'strict',
    dependents: DEPENDENTS,
  });
  const { submit, pending, error } = useRegister(onSuccess);
  const field = (name: keyof RegisterValues) => ({
    name,
    value: form.values[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => form.setField(name, e.currentTarget.value),
    error: form.errors[name],
    readOnly: pending,
  });

  return (
    <form
      onSubmit={form.handleSubmit((v) =>
        submit({ displayName: v.displayName, username: v.username, password: v.password, email: v.email }),
      )}
      noValidate
      aria-label="Register"
      data-testid="register-form"
    >
      <Stack gap="md">
        {inlineErrors ? <FormError message={error} /> : null}
        <TextInput
          {...field('displayName')}
          label="Display name"
          placeholder="How readers will know you"
          autoComplete="name"
          leftSection={<IconUserCircle size={16} aria-hidden />}
        />
        <TextInput
          {...field('username')}
          label="Username"
          placeholder="Pick a username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          leftSection={<IconUser size={16} aria-hidden />}
        />
        <TextInput
          {...field('email')}
          type="email"
          label="Email"
          description="Optional — collaborators invite you by email"
          placeholder="you@example.com"
          autoComplete="email"
          leftSection={<IconAt size={16} aria-hidden />}
        />
        <PasswordInput
          {...field('password')}
          label="Password"
          placeholder="At least 6 characters"
          autoComplete="new-password"
          leftSection={<IconLock size={16} aria-hidden />}
        />
        <PasswordInput
          {...field('confirmPassword')}
          label="Confirm password"
          placeholder="Type it again"
          autoComplete="new-password"
          leftSection={<IconLock size={16} aria-hidden />}
        />
        <SubmitButton pending={pending} label="Register" pendingLabel="Creating account" />
      </Stack>
    </form>
  );
}
