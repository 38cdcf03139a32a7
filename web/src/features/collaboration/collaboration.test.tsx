import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type CollaborativeSeries, type Invite, MESSAGES, ROLE_MESSAGES } from '@chronicler/schema';
import type { SyncEvent } from '@chronicler/sync-client';
import { serverSeries } from '@chronicler/sync-client/testing';
import { stubFetch } from '@/test/fetch-stub';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { relayLiveEvents } from '@/lib/liveEvents';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { CollaborationScreen } from './index';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const OTHER = '0190a6f0-0000-7000-8000-0000000000aa';
const listed = (over: Partial<CollaborativeSeries>): CollaborativeSeries => ({
  id: '0190a6f0-0000-7000-8000-00000000b001', name: 'Shared Saga', description: 'Written together', isPublic: false, ownerId: USER_ID,
  ownerName: 'Ursula Le Guin', createdAt: '2026-11-01T00:00:00.000Z', role: 'owner', memberCount: 2, pendingInviteCount: 0, ...over,
});
const pendingInvite: Invite = {
  id: '0190a6f0-0000-7000-8000-00000000c001', inviterId: OTHER, inviterName: 'Ged Sparrowhawk', collaborativeSeriesId: '0190a6f0-0000-7000-8000-00000000b009',
  seriesName: 'The Archipelago', role: 'editor', message: 'Write with me', expiresAt: '2099-01-01T00:00:00.000Z', inviteeEmail: 'ursula@example.com',
  status: 'pending', createdAt: '2026-11-20T00:00:00.000Z',
};
const render = (plan: 'apprentice' | 'loremaster' = 'loremaster', path = '/collaboration') =>
  renderWithDb(<CollaborationScreen />, { plan, path, pattern: '/collaboration' });

describe('Collaboration page', () => {
  it('lists My Series, Contributing with the owner named, and Invites, each with a count badge; Open goes to the series', async () => {
    const mine = listed({});
    const theirs = listed({ id: '0190a6f0-0000-7000-8000-00000000b002', name: 'Their Epic', ownerId: OTHER, ownerName: 'Ged Sparrowhawk', role: 'viewer' });
    stubFetch({ 'GET /api/collaboration/series': { status: 200, body: [mine, theirs] }, 'GET /api/collaboration/pending-invites': { status: 200, body: [pendingInvite] } });
    const user = userEvent.setup({ delay: null });
    const { db } = render();
    const card = await screen.findByTestId(`collab-series-${mine.id}`);
    expect(within(card).getByText('Owner: You · 2 collaborators')).toBeTruthy();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['My Series1', 'Contributing1', 'Invites1']);
    expect(within(card).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(`/series/${mine.id}`);
    expect(within(card).getByRole('button', { name: 'Invite' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: /Contributing/ }));
    const other = await screen.findByTestId(`collab-series-${theirs.id}`);
    expect(within(other).getByText(/Owner: Ged Sparrowhawk/)).toBeTruthy();
    expect(within(other).queryByRole('button', { name: 'Invite' })).toBeNull();
    // The roles reached the local database, for every screen to lock by.
    await waitFor(async () => expect((await db.seriesRoles.get(theirs.id))?.role).toBe('viewer'));
  });

  it('accepts an invite with the spec toast, and the invite leaves the list', async () => {
    let answered = false;
    const { calls } = stubFetch({
      'GET /api/collaboration/series': { status: 200, body: [] },
      'GET /api/collaboration/pending-invites': async () => ({ status: 200, body: answered ? [] : [pendingInvite] }),
      [`POST /api/collaboration/invites/${pendingInvite.id}/accept`]: async () => {
        answered = true;
        return { status: 200, body: { invite: { ...pendingInvite, status: 'accepted' }, series: null } };
      },
    });
    const user = userEvent.setup({ delay: null });
    render('apprentice');
    await user.click(await screen.findByRole('tab', { name: /Invites/ }));
    const card = await screen.findByTestId(`invite-${pendingInvite.id}`);
    expect(within(card).getByText('Ged Sparrowhawk invited you as editor (can edit the series content).')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('You have joined the collaborative series.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/accept'))).toBe(true);
    expect(await screen.findByText('No pending invitations')).toBeTruthy();
  });

  it('an invite sent while the page is open appears with its badge when the stream says so, and leaves when it expires', async () => {
    const soon = { ...pendingInvite, id: '0190a6f0-0000-7000-8000-00000000c002', seriesName: 'Short Notice', expiresAt: new Date(Date.now() + 3_000).toISOString() };
    let sent = false;
    stubFetch({
      'GET /api/collaboration/series': { status: 200, body: [] },
      // The server no longer lists an invite once it has expired.
      'GET /api/collaboration/pending-invites': async () => ({ status: 200, body: sent && Date.parse(soon.expiresAt) > Date.now() ? [soon] : [] }),
    });
    const listeners = new Set<(event: SyncEvent) => void>();
    const stop = relayLiveEvents({ on: (fn) => (listeners.add(fn), () => listeners.delete(fn)) }, USER_ID);
    try {
      render('apprentice');
      const tab = await screen.findByRole('tab', { name: /Invites/ });
      await waitFor(() => expect(tab.textContent).toBe('Invites0'));
      sent = true;
      for (const fn of listeners) fn({ type: 'live', event: 'invites', data: {} });
      await waitFor(() => expect(tab.textContent).toBe('Invites1'));
      await waitFor(() => expect(tab.textContent).toBe('Invites0'), { timeout: 8_000 });
    } finally {
      stop();
    }
  });

  it('shows the plan-gate alert with Upgrade Your Plan on Apprentice, and New Series is locked', async () => {
    stubFetch({ 'GET /api/collaboration/series': { status: 200, body: [] }, 'GET /api/collaboration/pending-invites': { status: 200, body: [] } });
    render('apprentice');
    expect(await screen.findByText('Feature not available')).toBeTruthy();
    expect(screen.getByText('Community collaboration is only available on the Loremaster tier and above.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade Your Plan' }).getAttribute('href')).toBe('/subscriptions');
    expect(screen.getAllByRole('button', { name: 'New Series' }).every((b) => b.hasAttribute('disabled'))).toBe(true);
  });

  it('shows the loading error alert, and recovers on Try again', async () => {
    let fail = true;
    stubFetch({
      'GET /api/collaboration/series': async () => (fail ? { status: 500, body: { message: 'boom', code: 'INTERNAL' } } : { status: 200, body: [listed({})] }),
      'GET /api/collaboration/pending-invites': { status: 200, body: [] },
    });
    const user = userEvent.setup({ delay: null });
    render();
    expect(await screen.findByText('Error loading collaboration data')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Shared Saga')).toBeTruthy();
  });

  it('creates a series with the spec validation, and invites with the spec validation and toast', async () => {
    const created = listed({ memberCount: 0 });
    let list: CollaborativeSeries[] = [];
    const { calls } = stubFetch({
      'GET /api/collaboration/series': async () => ({ status: 200, body: list }),
      'GET /api/collaboration/pending-invites': { status: 200, body: [] },
      'POST /api/collaboration/series': async () => {
        list = [created];
        return { status: 201, body: created };
      },
      [`POST /api/collaboration/series/${created.id}/invites`]: { status: 201, body: { ...pendingInvite, collaborativeSeriesId: created.id } },
    });
    const user = userEvent.setup({ delay: null });
    render();
    await user.click((await screen.findAllByRole('button', { name: 'New Series' }))[0]!);
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Series name/ }), 'ab');
    await user.type(within(dialog).getByRole('textbox', { name: /Description/ }), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Create Series' }));
    expect(await within(dialog).findByText(MESSAGES.collaboration.nameMin)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.collaboration.descriptionMin)).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: /Series name/ }), 'c saga');
    await user.type(within(dialog).getByRole('textbox', { name: /Description/ }), ' but now long enough');
    await user.click(within(dialog).getByRole('button', { name: 'Create Series' }));
    expect(await screen.findByText('Series created')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'abc saga', description: 'short but now long enough', isPublic: false });

    const card = await screen.findByTestId(`collab-series-${created.id}`);
    await user.click(within(card).getByRole('button', { name: 'Invite' }));
    const invite = await screen.findByRole('dialog');
    await user.type(within(invite).getByRole('textbox', { name: /E-mail/ }), 'not-an-email');
    await user.click(within(invite).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(invite).findByText(MESSAGES.collaboration.invalidEmail)).toBeTruthy();
    await user.clear(within(invite).getByRole('textbox', { name: /E-mail/ }));
    await user.type(within(invite).getByRole('textbox', { name: /E-mail/ }), 'ged@example.com');
    await user.click(within(invite).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Invitation sent')).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/invites'))?.body).toEqual({ inviteeEmail: 'ged@example.com', role: 'viewer' });
  });
});

function RoleProbe({ seriesId }: { seriesId: string }) {
  const { canEdit, readOnlyReason } = useSeriesRole(seriesId);
  return <p data-testid="probe">{canEdit ? 'editable' : readOnlyReason}</p>;
}

describe('useSeriesRole', () => {
  it('is read-only for a viewer and turns editable the moment the stored role changes', async () => {
    stubFetch({});
    const series = serverSeries({ ownerId: OTHER });
    const { db } = renderWithDb(<RoleProbe seriesId={series.id} />);
    await db.series.put(series);
    expect((await screen.findByTestId('probe')).textContent).toBe('editable');
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: OTHER, ownerName: 'Ged' });
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe(ROLE_MESSAGES.readOnly));
    await db.seriesRoles.put({ seriesId: series.id, role: 'editor', ownerId: OTHER, ownerName: 'Ged' });
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('editable'));
  });
});
