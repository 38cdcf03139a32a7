import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CollaborativeSeries } from '@chronicler/schema';
import { canEditWith, seriesRoleOf, storeSeriesRoles } from './roles.ts';
import { USER_ID, freshDb, serverSeries } from './testing/fixtures.ts';

const listed = (id: string, role: CollaborativeSeries['role'], ownerId = 'someone-else'): CollaborativeSeries => ({
  id, name: 'Shared', description: '', isPublic: false, ownerId, ownerName: 'Owner Name', createdAt: '', role, memberCount: 1, pendingInviteCount: 0,
});

describe('series roles', () => {
  it('the owner of the local series row is owner; members have the stored role; a new list replaces the old', async () => {
    const db = freshDb();
    const own = serverSeries({ ownerId: USER_ID });
    const shared = serverSeries({ ownerId: 'someone-else' });
    await db.series.bulkPut([own, shared]);
    expect(await seriesRoleOf(db, own.id)).toBe('owner');
    expect(await seriesRoleOf(db, shared.id)).toBeNull();
    await storeSeriesRoles(db, [listed(shared.id, 'viewer')]);
    expect(await seriesRoleOf(db, shared.id)).toBe('viewer');
    expect(canEditWith('viewer')).toBe(false);
    await storeSeriesRoles(db, [listed(shared.id, 'editor')]);
    expect(await seriesRoleOf(db, shared.id)).toBe('editor');
    expect(canEditWith('editor')).toBe(true);
    await storeSeriesRoles(db, []);
    expect(await seriesRoleOf(db, shared.id)).toBeNull();
    expect(canEditWith(null)).toBe(true);
    db.close();
  });
});
