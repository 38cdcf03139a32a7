import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { freshDb, serverUserRecord } from '@chronicler/sync-client/testing';
import { TEST_USER } from '@/test/fetch-stub';
import { bindSessionToSyncedUser } from './currentUser';
import { LAST_USER_KEY, useSession } from './session';

let db: ChroniclerDb;
const disposers: Array<() => void> = [];
afterEach(() => {
  disposers.splice(0).forEach((d) => d());
  db?.close();
});

const record = (over: Parameters<typeof serverUserRecord>[0] = {}) =>
  serverUserRecord({ id: TEST_USER.id, username: TEST_USER.username, displayName: TEST_USER.displayName, email: TEST_USER.email, plan: 'apprentice', ...over });

async function bound(source: 'server' | 'cache', options: Parameters<typeof bindSessionToSyncedUser>[1] = {}) {
  useSession.setState({ status: 'authenticated', user: { ...TEST_USER, plan: 'apprentice' }, source });
  db = freshDb(TEST_USER.id);
  await db.open();
  const saveTimeZone = vi.fn(async () => undefined);
  disposers.push(bindSessionToSyncedUser(db, { saveTimeZone, timeZone: () => 'Europe/Paris', zoneDelayMs: 0, ...options }));
  return { saveTimeZone };
}

const planNow = () => useSession.getState().user?.plan;

describe('the session follows the synced author record', () => {
  it('takes a plan change that arrives by sync, without a reload, and remembers it', async () => {
    await bound('server');
    // Nothing on the device at start (a first sign-in): the pull brings the record, then a change.
    await new Promise((r) => setTimeout(r, 50));
    await db.users.put(record({ rev: 4 }));
    await db.users.put(record({ rev: 9, plan: 'wordsmith' }));
    await vi.waitFor(() => expect(planNow()).toBe('wordsmith'));
    expect(JSON.parse(window.localStorage.getItem(LAST_USER_KEY)!).plan).toBe('wordsmith');
  });

  it('online, does not go back to the older record found on the device at start', async () => {
    useSession.setState({ status: 'authenticated', user: { ...TEST_USER, plan: 'loremaster' }, source: 'server' });
    db = freshDb(TEST_USER.id);
    await db.open();
    await db.users.put(record({ rev: 3, plan: 'apprentice', timeZone: 'UTC' }));
    disposers.push(bindSessionToSyncedUser(db, { saveTimeZone: async () => undefined }));
    await new Promise((r) => setTimeout(r, 50));
    expect(planNow()).toBe('loremaster');
    await db.users.put(record({ rev: 5, plan: 'legendary', timeZone: 'UTC' }));
    await vi.waitFor(() => expect(planNow()).toBe('legendary'));
  });

  it('offline start: the record on the device is newer than the remembered user', async () => {
    useSession.setState({ status: 'authenticated', user: { ...TEST_USER, plan: 'apprentice' }, source: 'cache' });
    db = freshDb(TEST_USER.id);
    await db.open();
    await db.users.put(record({ rev: 3, plan: 'wordsmith', timeZone: 'UTC' }));
    disposers.push(bindSessionToSyncedUser(db, { saveTimeZone: async () => undefined }));
    await vi.waitFor(() => expect(planNow()).toBe('wordsmith'));
  });

  it("stores the browser's time zone once when the record has none, and never when it has one", async () => {
    const { saveTimeZone } = await bound('server');
    await db.users.put(record({ rev: 2, timeZone: null }));
    await vi.waitFor(() => expect(saveTimeZone).toHaveBeenCalledWith('Europe/Paris'));
    await db.users.put(record({ rev: 3, timeZone: null, displayName: 'Ursula K. Le Guin' }));
    await vi.waitFor(() => expect(useSession.getState().user?.displayName).toBe('Ursula K. Le Guin'));
    expect(saveTimeZone).toHaveBeenCalledTimes(1);

    disposers.splice(0).forEach((d) => d());
    db.close();
    const again = await bound('server');
    await db.users.put(record({ rev: 4, timeZone: 'Europe/Paris' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(again.saveTimeZone).not.toHaveBeenCalled();
  });

  it('stores the zone only a while after start, so that it is not work ahead of the first screen, and not once unbound', async () => {
    const { saveTimeZone } = await bound('server', { zoneDelayMs: 300 });
    await db.users.put(record({ rev: 2, timeZone: null }));
    await new Promise((r) => setTimeout(r, 100));
    expect(saveTimeZone).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(saveTimeZone).toHaveBeenCalledWith('Europe/Paris'));

    disposers.splice(0).forEach((d) => d());
    db.close();
    const again = await bound('server', { zoneDelayMs: 300 });
    await db.users.put(record({ rev: 3, timeZone: null }));
    await new Promise((r) => setTimeout(r, 50));
    disposers.splice(0).forEach((d) => d()); // signed out before the delay
    await new Promise((r) => setTimeout(r, 400));
    expect(again.saveTimeZone).not.toHaveBeenCalled();
  });
});
