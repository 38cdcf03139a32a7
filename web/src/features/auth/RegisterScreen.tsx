import './styles';
import { useCallback, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Text } from '@mantine/core';
import type { User } from '@/lib/session';
import { AccountCard } from './components/AccountCard';
import { GuestOnly } from './components/GuestOnly';
import { RegisterForm } from './components/RegisterForm';

/**
 * /register: display name ≥ 2, username ≥ 3, password ≥ 6, matching confirmation, optional email; a
 * link to /login (spec 000 §2, §5; docs/spec-differences.md). The server signs the new author in,
 * so success goes to "/"; should it answer without a user, the author is sent to
 * /login?registered=true.
 */
export function RegisterScreen({ themeToggle }: { themeToggle?: ReactNode }) {
  const navigate = useNavigate();
  const done = useCallback(
    (user: User | null) => navigate(user ? '/' : '/login?registered=true', { replace: true }),
    [navigate],
  );

  return (
    <GuestOnly>
      <AccountCard
        title="Create your account"
        subtitle="Your series, characters and worlds, in one place."
        themeToggle={themeToggle}
        footer={
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to="/login" fw={600}>
              Log in
            </Anchor>
          </Text>
        }
      >
        <RegisterForm mode="strict" onSuccess={done} />
      </AccountCard>
    </GuestOnly>
  );
}
