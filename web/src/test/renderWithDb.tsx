/**
 * Renders a screen over a real Dexie database on its own in-memory IndexedDB (fake-indexeddb) with
 * the real mutators, signed in, in the app's theme, with the toast region: what the author sees is
 * read back from the database. The router's location is shown in `data-testid="location"`.
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
import type { ChroniclerDb } from '@chronicler/sync-client';
import { SyncTestProvider } from '@/lib/sync';
import { USER_ID, freshDb } from '@chronicler/sync-client/testing';

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

export interface RenderWithDbOptions {
  plan?: PlanName;
  /** Default '/'. */
  path?: string;
  /** Route pattern the element is mounted at (default: the path without its query). */
  pattern?: string;
  db?: ChroniclerDb;
}

export function renderWithDb(ui: ReactNode, options: RenderWithDbOptions = {}) {
  notifications.clean();
  reloadCurrentSeriesId();
  signIn(options.plan);
  const db = options.db ?? freshDb();
  const path = options.path ?? '/';
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
