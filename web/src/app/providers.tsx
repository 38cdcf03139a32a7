import { useEffect, type ReactNode } from 'react';
import { ToastRegion } from '@/components/ToastRegion';
import { ThemeProvider } from '@/features/theme/ThemeProvider';
import { loadSession } from '@/lib/session';
import { flushPendingToast } from '@/lib/toast';

interface AppProvidersProps {
  children: ReactNode;
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test';
}

/** Theme, toasts and the session check that every screen relies on. */
export function AppProviders({ children, env = 'default' }: AppProvidersProps) {
  useEffect(() => {
    void loadSession();
    flushPendingToast();
  }, []);
  return (
    <ThemeProvider env={env}>
      {children}
      <ToastRegion />
    </ThemeProvider>
  );
}
