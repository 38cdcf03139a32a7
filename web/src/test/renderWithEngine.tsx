/**
 * Renders a screen through the real SyncProvider and sync engine over its own in-memory IndexedDB,
 * against a scripted server that refuses one request and has nothing new in its changes feed: for
 * the tests of what the author sees when the server refuses a write the client let through.
 */
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { IDBFactory } from 'fake-indexeddb';
import type { PlanName } from '@chronicler/schema';
import { ToastRegion } from '@/components/ToastRegion';
import { ThemeProvider } from '@/features/theme';
import { openChroniclerDb, type ChroniclerDb } from '@chronicler/sync-client';
import { SyncProvider } from '@/app/SyncProvider';
import { emptyChanges, scriptedFetch } from '@chronicler/sync-client/testing';
import { USER_ID, signIn } from './renderWithDb';

export interface RefusedRequest {
  method: string;
  path: string;
  status: number;
  message: string;
  code: string;
}

export interface RenderWithEngineOptions {
  plan: PlanName;
  path: string;
  /** Writes the rows the device already has. */
  seed: (db: ChroniclerDb) => Promise<unknown>;
  refuse: RefusedRequest;
}

export async function renderWithEngine(ui: ReactNode, { plan, path, seed, refuse }: RenderWithEngineOptions) {
  const factory = new IDBFactory();
  const openDb = (id: string) => openChroniclerDb(id, { indexedDB: factory, IDBKeyRange });
  const seeded = openDb(USER_ID);
  await seed(seeded);
  seeded.close();

  const fetch = scriptedFetch((call) => {
    if (call.method === refuse.method && call.path === refuse.path) return { status: refuse.status, body: { message: refuse.message, code: refuse.code } };
    if (call.path.startsWith('/api/sync/changes')) return { status: 200, body: { changes: emptyChanges(), scopeAdded: [], scopeRemoved: [], cursor: 0, hasMore: false } };
    return { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } };
  });

  notifications.clean();
  signIn(plan);
  const utils = render(
    <ThemeProvider env="test">
      <SyncProvider openDb={openDb} engineOptions={{ fetch, eventSource: null, locks: null, platform: { window: null, document: null } }}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </SyncProvider>
      <ToastRegion />
    </ThemeProvider>,
  );
  return { fetch, ...utils };
}
