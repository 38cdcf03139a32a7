import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BACKUP_MESSAGES, type BackupListResponse } from '@chronicler/schema';
import { renderWithDb } from '@/test/renderWithDb';
import { stubFetch } from '@/test/fetch-stub';
import { BackupsScreen } from './index';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.unstubAllGlobals());

const list = (snapshots: BackupListResponse['snapshots']): BackupListResponse => ({ frequency: 'daily', keep: 14, snapshots });
const SNAPSHOT = { id: '01930000-0000-7000-8000-000000000b01', createdAt: '2026-11-20T10:00:00.000Z', sizeBytes: 48_000, reason: 'daily' as const };

describe('Backups page', () => {
  it('lists the server backups with download links, and Back up now makes one', async () => {
    const user = userEvent.setup({ delay: null });
    let snapshots: BackupListResponse['snapshots'] = [];
    const { calls } = stubFetch({
      'GET /api/backups': async () => ({ status: 200, body: list(snapshots) }),
      'POST /api/backups': async () => {
        snapshots = [{ ...SNAPSHOT, id: '01930000-0000-7000-8000-000000000b02', reason: 'manual' }, SNAPSHOT];
        return { status: 201, body: snapshots[0] };
      },
    });
    renderWithDb(<BackupsScreen />, { plan: 'wordsmith' });
    expect(await screen.findByText(/No server backups yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download backup' }).getAttribute('href')).toBe('/api/backup');
    await user.click(screen.getByRole('button', { name: 'Back up now' }));
    const table = await screen.findByRole('table', { name: 'Server backups' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual(['Back up now', 'Daily']);
    expect(within(rows[1]!).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`/api/backups/${SNAPSHOT.id}`);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(await screen.findByText('Backup saved')).toBeTruthy();
  });

  it('restores a chosen archive, sending its bytes, and shows the server’s message when it is damaged', async () => {
    const user = userEvent.setup({ delay: null });
    let answer: { status: number; body: unknown } = { status: 200, body: { series: ['The Glass Kingdoms'], counts: { series: { restored: 1, alreadyPresent: 0, remapped: 0 } } } };
    const { calls } = stubFetch({
      'GET /api/backups': { status: 200, body: list([]) },
      'POST /api/backup/restore': async () => answer,
    });
    renderWithDb(<BackupsScreen />, { plan: 'apprentice' });
    const bytes = new Uint8Array([80, 75, 3, 4, 255, 0, 1, 2]);
    await user.upload(screen.getByTestId('restore-file'), new File([bytes], 'backup.zip', { type: 'application/zip' }));
    expect(await screen.findByText(/Restored: The Glass Kingdoms/)).toBeTruthy();
    const sent = calls.find((c) => c.path === '/api/backup/restore')!.body as { archive: string };
    expect(Uint8Array.from(atob(sent.archive), (c) => c.charCodeAt(0))).toEqual(bytes);

    answer = { status: 422, body: { message: BACKUP_MESSAGES.damaged, code: 'VALIDATION_FAILED' } };
    await user.upload(screen.getByTestId('restore-file'), new File([bytes.slice(0, 3)], 'broken.zip', { type: 'application/zip' }));
    // The inline alert (and the toast) carry the server's own words.
    await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes(BACKUP_MESSAGES.damaged))).toBe(true));
  });

  it('restores a server backup after confirming', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = stubFetch({
      'GET /api/backups': { status: 200, body: list([SNAPSHOT]) },
      [`POST /api/backups/${SNAPSHOT.id}/restore`]: { status: 200, body: { series: ['Saga'], counts: {} } },
    });
    renderWithDb(<BackupsScreen />, { plan: 'wordsmith' });
    await user.click(await screen.findByRole('button', { name: 'Restore' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Backup restored')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === `/api/backups/${SNAPSHOT.id}/restore`)).toBe(true);
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    const user = userEvent.setup({ delay: null });
    let fail = true;
    stubFetch({ 'GET /api/backups': async () => (fail ? { status: 500, body: { message: 'Something went wrong', code: 'INTERNAL' } } : { status: 200, body: list([]) }) });
    renderWithDb(<BackupsScreen />, { plan: 'wordsmith' });
    expect(await screen.findByText('Backups could not be loaded')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No server backups yet/)).toBeTruthy();
  });
});
