import { useCallback, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Paper, Tabs, Text, Title } from '@mantine/core';
import { BrandMark } from '@/components/BrandMark';
import { FeatureHighlights } from './components/FeatureHighlights';
import { FloatingEmoji } from './components/FloatingEmoji';
import { GuestOnly } from './components/GuestOnly';
import { LoginForm } from './components/LoginForm';
import { RegisterForm } from './components/RegisterForm';
import { TermsNotice } from './components/TermsNotice';
import { redirectTarget } from './redirect';
import classes from './auth.module.css';

type AuthTab = 'login' | 'register';

interface AuthScreenProps {
  /** The theme toggle (composed in by the app). */
  themeToggle?: ReactNode;
}

/** /auth: tabs Login and Register; a signed-in author is sent to "/" (spec 000 §2 Auth page). */
export function AuthScreen({ themeToggle }: AuthScreenProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>('login');
  const target = redirectTarget(location);
  const done = useCallback(() => navigate(target, { replace: true }), [navigate, target]);

  return (
    <GuestOnly>
      <div className={classes.page}>
        <FeatureHighlights />
        <main className={classes.formSide}>
          <FloatingEmoji />
          <div className={classes.formTopBar}>
            <span className={classes.mobileBrand}>
              <BrandMark size={32} />
            </span>
            {themeToggle}
          </div>
          <div className={classes.formWrap}>
            <Paper className={classes.card} withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 36 }}>
              <Title order={1} className={classes.cardTitle}>
                {tab === 'login' ? 'Welcome back' : 'Start your saga'}
              </Title>
              <Text c="dimmed" size="sm" mt={6} mb="lg">
                Your ultimate writing companion
              </Text>
              <Tabs value={tab} onChange={(v) => setTab(v === 'register' ? 'register' : 'login')} variant="pills" radius="md">
                <Tabs.List grow className={classes.tabsList}>
                  <Tabs.Tab value="login">Login</Tabs.Tab>
                  <Tabs.Tab value="register">Register</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="login" pt="lg">
                  <LoginForm mode="auth" onSuccess={done} inlineErrors={false} />
                  <TermsNotice />
                </Tabs.Panel>
                <Tabs.Panel value="register" pt="lg">
                  <RegisterForm mode="auth" onSuccess={done} inlineErrors={false} />
                  <TermsNotice />
                </Tabs.Panel>
              </Tabs>
            </Paper>
          </div>
        </main>
      </div>
    </GuestOnly>
  );
}
