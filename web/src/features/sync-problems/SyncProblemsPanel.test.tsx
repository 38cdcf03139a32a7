import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { newId } from '@chronicler/schema';
import { type ChroniclerDb, type DeadLetter, bindStatusToDb, createSyncStatusStore, openChroniclerDb } from '@chronicler/sync-client';
import { SyncProblemsPanel } from './SyncProblemsPanel';

let db: ChroniclerDb;
afterEach(() => db?.close());

function letter(): DeadLetter {
  const id = newId();
  return {
    entry: {
      idemKey: newId(),
      mutationId: 1,
      kind: 'update',
      method: 'PUT',
      path: `/api/chapters/${id}`,
      body: { content: 'Lost? Never.' },
      entity: 'chapters',
      entityId: id,
      seriesId: newId(),
      baseRev: 3,
      before: [],
      effects: [],
      touches: [],
      attempts: 1,
      status: 'pending',
      nextAttemptAt: 0,
      createdAt: 0,
    },
    status: 404,
    response: { message: 'Not found', code: 'NOT_FOUND' },
    content: { entity: 'chapters', entityId: id, label: 'The Storm', text: 'Lost? Never.', fields: { content: 'Lost? Never.' } },
    createdAt: Date.now(),
  };
}

describe('SyncProblemsPanel', () => {
  it('lists refused changes with their text; copies, exports and dismisses', async () => {
    db = openChroniclerDb('u1', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    await db.deadLetters.add(letter());
    const store = createSyncStatusStore();
    const unbind = bindStatusToDb(db, store);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const createObjectURL = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: () => undefined });

    render(
      <MantineProvider>
        <SyncProblemsPanel db={db} store={store} />
      </MantineProvider>,
    );
    await screen.findByText('Changes to chapter “The Storm”');
    expect(screen.getByText('Not found')).toBeTruthy();
    expect(screen.getByText('Lost? Never.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Copy text' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('The Storm\n\nLost? Never.'));

    fireEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect(createObjectURL).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss: Changes to chapter “The Storm”' }));
    await waitFor(() => expect(screen.queryByText('Changes to chapter “The Storm”')).toBeNull());
    expect(await db.deadLetters.count()).toBe(0);
    unbind();
  });
});
