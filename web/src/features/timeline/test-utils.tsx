/**
 * Renders the Timeline screen over a real Dexie database on its own in-memory IndexedDB
 * (fake-indexeddb) with the real mutators: what the author sees is read back from the database.
 */
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { PlanName } from '@chronicler/schema';
import { ToastRegion } from '@/components/ToastRegion';
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

export function renderScreen(ui: ReactNode, options: { plan?: PlanName; db?: ChroniclerDb; path?: string } = {}) {
  notifications.clean();
  reloadCurrentSeriesId();
  signIn(options.plan);
  const db = options.db ?? freshDb();
  const path = options.path ?? '/';
  const utils = render(
    <MantineProvider env="test">
      <SyncTestProvider db={db}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
        </MemoryRouter>
      </SyncTestProvider>
      <ToastRegion />
    </MantineProvider>,
  );
  return { db, ...utils };
}
