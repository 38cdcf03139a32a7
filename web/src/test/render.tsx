import { RouterProvider, createMemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/routes';
import { useSession } from '@/lib/session';
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
