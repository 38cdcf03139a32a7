import '@mantine/core/styles/PasswordInput.layer.css';
import { useState, type FormEvent } from 'react';
import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { MESSAGES, MINIMUMS } from '@chronicler/schema';
import { isApiError, isNetworkError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { withError } from '@/lib/copy/toast-core';
import { changePassword } from './api';
import { ACCOUNT_COPY, ACCOUNT_TOASTS } from './copy';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
type Errors = Partial<Record<Field, string>>;
const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The same rules as registration (spec 000 §7 messages); the server checks them again. */
function validate(values: typeof EMPTY): Errors {
  const errors: Errors = {};
  if (values.currentPassword === '') errors.currentPassword = ACCOUNT_COPY.currentPasswordRequired;
  if (values.newPassword === '') errors.newPassword = MESSAGES.auth.passwordRequired;
  else if (values.newPassword.length < MINIMUMS.password) errors.newPassword = MESSAGES.auth.passwordMin;
  if (values.confirmPassword !== values.newPassword) errors.confirmPassword = MESSAGES.auth.passwordsDoNotMatch;
  return errors;
}

/** Change password: asks the current one; the server then signs out every other device. */
export function ChangePasswordCard({ onChanged }: { onChanged: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  const set = (field: Field) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      setValues(EMPTY);
      toast.show(ACCOUNT_TOASTS.passwordChanged);
      onChanged();
    } catch (error) {
      const body = isApiError(error) ? (error.body as { fields?: Record<string, string> } | undefined) : undefined;
      if (body?.fields?.currentPassword || body?.fields?.newPassword) {
        // The server's own words beside the field it refused (wrong current password, a common one).
        setErrors({ currentPassword: body.fields.currentPassword, newPassword: body.fields.newPassword });
      } else if (isNetworkError(error)) toast.show(ACCOUNT_TOASTS.offline);
      else toast.show(withError(ACCOUNT_TOASTS.passwordChangeFailed, isApiError(error) ? error.serverMessage : undefined));
    } finally {
      setPending(false);
    }
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit} noValidate aria-labelledby="change-password-title">
        <Stack gap="md" maw={420}>
          <div>
            <Title order={2} size="h3" id="change-password-title">
              {ACCOUNT_COPY.passwordTitle}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {ACCOUNT_COPY.passwordHelp}
            </Text>
          </div>
          <PasswordInput
            label={ACCOUNT_COPY.currentPassword}
            autoComplete="current-password"
            value={values.currentPassword}
            onChange={set('currentPassword')}
            error={errors.currentPassword}
            required
          />
          <PasswordInput
            label={ACCOUNT_COPY.newPassword}
            autoComplete="new-password"
            value={values.newPassword}
            onChange={set('newPassword')}
            error={errors.newPassword}
            required
          />
          <PasswordInput
            label={ACCOUNT_COPY.confirmPassword}
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            error={errors.confirmPassword}
            required
          />
          <Button type="submit" loading={pending} style={{ alignSelf: 'flex-start' }}>
            {ACCOUNT_COPY.changePassword}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
