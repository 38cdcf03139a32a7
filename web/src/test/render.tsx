import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/routes';
import { useSession } from '@/lib/session';
import { ThemeProvider } from '@/features/theme';
import { useThemeStore, readStoredTheme } from '@/features/theme/theme-store';
import { rehydrateSidebar } from '@/features/layout/sidebar-store';

/** Back to a fresh page load: nobody known yet, stored choices read again. */
export function resetAppState(): void {
  notifications.clean();
  useSession.setState({ status: 'loading', user: null, source: null });
  useThemeStore.setState({ theme: readStoredTheme() });
  rehydrateSidebar();
}

/** Renders the whole app (providers + route table) at `path`, as a fresh page load would. */
export function renderApp(path: string) {
  resetAppState();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <AppProviders env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...utils };
}

/**
 * Renders one piece of UI in the app's theme (no transitions or portals). Component and feature
 * tests come here for it: the layer rules keep them from importing app/ or another feature.
 */
export function renderInTheme(ui: ReactNode) {
  return render(<ThemeProvider env="test">{ui}</ThemeProvider>);
}

/** Renders one piece of UI inside every app-wide provider (theme, toasts, the session check). */
export function renderInApp(ui: ReactNode) {
  return render(<AppProviders env="test">{ui}</AppProviders>);
}
