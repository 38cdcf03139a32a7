import './styles';
import { useCallback, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert, Anchor, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { LoginForm } from './components/LoginForm';
import { AccountCard } from './components/AccountCard';
import { GuestOnly } from './components/GuestOnly';
import { redirectTarget } from './redirect';

/** /login: username ≥ 3, password ≥ 6, checked on change; a link to /register (spec 000 §2, §5). */
export function LoginScreen({ themeToggle }: { themeToggle?: ReactNode }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const target = redirectTarget(location);
  const done = useCallback(() => navigate(target, { replace: true }), [navigate, target]);
  const registered = params.get('registered') === 'true';

  return (
    <GuestOnly>
      <AccountCard
        title="Log in to Chronicler"
        subtitle="Pick up the story where you left it."
        themeToggle={themeToggle}
        footer={
          <Text size="sm" ta="center">
            New to Chronicler?{' '}
            <Anchor component={Link} to="/register" fw={600}>
              Create an account
            </Anchor>
          </Text>
        }
      >
        {registered ? (
          <Alert
            variant="light"
            color="teal"
            radius="md"
            mb="md"
            icon={<IconCircleCheck size={18} aria-hidden />}
            title="Account created"
            data-testid="registered-note"
            styles={{ message: { color: 'var(--mantine-color-text)' } }}
          >
            Registration successful. Log in with your new username and password.
          </Alert>
        ) : null}
        <LoginForm mode="strict" onSuccess={done} />
      </AccountCard>
    </GuestOnly>
  );
}
