import './styles';
import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Center, Loader, Paper, Tabs, Text, Title } from '@mantine/core';
import { BrandMark } from '@/components/BrandMark';
import { PageSpinner } from '@/components/PageSpinner';
import { afterFirstPaint } from '@/lib/first-load';
import { useSession } from '@/lib/session';
import { FeatureHighlights } from './components/FeatureHighlights';
import { LoginForm } from './components/LoginForm';
import { TermsNotice } from './components/TermsNotice';
import { redirectTarget } from './redirect';
import classes from './auth.module.css';

type AuthTab = 'login' | 'register';

// Not needed for the first paint of /auth (the first-route JavaScript budget): the register form
// loads when its tab is pointed at, focused or opened.
const loadRegisterForm = () => import('./components/RegisterForm');
const RegisterForm = lazy(() => loadRegisterForm().then((m) => ({ default: m.RegisterForm })));
const preloadRegisterForm = () => void loadRegisterForm();
// Decoration, and its drawn stand-ins are icons: downloaded and drawn after the first paint
// (requested while the form rendered, its five files were counted as part of the form's paint).
const FloatingEmoji = lazy(() => import('./components/FloatingEmoji').then((m) => ({ default: m.FloatingEmoji })));

/** Mounts the decoration after the first paint; its own component, so that only it re-renders then. */
function DeferredFloatingEmoji() {
  const [decorated, setDecorated] = useState(false);
  useEffect(() => afterFirstPaint(() => setDecorated(true)), []);
  return decorated ? (
    <Suspense fallback={null}>
      <FloatingEmoji />
    </Suspense>
  ) : null;
}

interface AuthScreenProps {
  /** The theme toggle (composed in by the app). */
  themeToggle?: ReactNode;
}

/** /auth: tabs Login and Register; a signed-in author is sent to "/" (spec 000 §2 Auth page). */
export function AuthScreen({ themeToggle }: AuthScreenProps) {
  const status = useSession((s) => s.status);
  const location = useLocation();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>('login');
  // Once shown the register form stays mounted, so what the author typed survives a tab switch.
  const [registerShown, setRegisterShown] = useState(false);
  if (tab === 'register' && !registerShown) setRegisterShown(true);
  const target = redirectTarget(location);
  const done = useCallback(() => navigate(target, { replace: true }), [navigate, target]);

  if (status === 'loading') return <PageSpinner />;
  if (status === 'authenticated') return <Navigate to={target} replace />;

  return (
    <div className={classes.page}>
      <FeatureHighlights />
      <main className={classes.formSide}>
        <DeferredFloatingEmoji />
        <div className={classes.formTopBar}>
          <span className={classes.mobileBrand} data-testid="auth-brand">
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
                <Tabs.Tab value="register" onMouseEnter={preloadRegisterForm} onFocus={preloadRegisterForm}>
                  Register
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="login" pt="lg">
                <LoginForm mode="auth" onSuccess={done} inlineErrors={false} />
                <TermsNotice />
              </Tabs.Panel>
              <Tabs.Panel value="register" pt="lg">
                {registerShown && (
                  <Suspense
                    fallback={
                      <Center py="xl" role="status" aria-label="Loading the form">
                        <Loader size="md" type="dots" aria-hidden />
                      </Center>
                    }
                  >
                    <RegisterForm mode="auth" onSuccess={done} inlineErrors={false} />
                    <TermsNotice />
                  </Suspense>
                )}
              </Tabs.Panel>
            </Tabs>
          </Paper>
        </div>
      </main>
    </div>
  );
}
