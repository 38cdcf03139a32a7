/**
 * Renders series screens over a real Dexie database on its own in-memory IndexedDB
 * (fake-indexeddb), with the real mutators: what the author sees is read back from the database.
 */
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { render } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { PlanName } from '@chronicler/schema';
import { ToastRegion } from '@/components/ToastRegion';
import { ThemeProvider } from '@/features/theme';
import { reloadCurrentSeriesId } from '@/lib/currentSeries';
import { useSession } from '@/lib/session';
import type { ChroniclerDb } from '@/sync/db';
import { SyncTestProvider } from '@/sync/react';
import { USER_ID, freshDb } from '@/sync/testing/fixtures';

export { USER_ID };

export function signIn(plan: PlanName = 'apprentice'): void {
  useSession.setState({
    status: 'authenticated',
    source: 'server',
    user: { id: USER_ID, username: 'ursula', displayName: 'Ursula Le Guin', email: null, plan },
  });
}

/** Shows where the router is, for navigation assertions. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export interface RenderOptions {
  plan?: PlanName;
  path?: string;
  /** Route pattern the element is mounted at (default: the path without its query). */
  pattern?: string;
  db?: ChroniclerDb;
}

export function renderWithDb(ui: ReactNode, options: RenderOptions = {}) {
  notifications.clean();
  reloadCurrentSeriesId();
  signIn(options.plan);
  const db = options.db ?? freshDb();
  const path = options.path ?? '/series';
  const pattern = options.pattern ?? path.split('?')[0]!;
  const utils = render(
    <ThemeProvider env="test">
      <SyncTestProvider db={db}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={pattern} element={ui} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </SyncTestProvider>
      <ToastRegion />
    </ThemeProvider>,
  );
  return { db, ...utils };
}
