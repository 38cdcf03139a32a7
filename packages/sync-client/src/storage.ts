/**
 * Durability on the device (docs/sync-protocol.md#durability-on-the-device): ask once for
 * persistent storage, and surface quota errors to the author — never swallow them.
 */
import type { ChroniclerDb } from './db.ts';
import { type SyncStatusStore, syncStatus } from './status.ts';

export const QUOTA_MESSAGE =
  'This device is out of storage space for Chronicler. Your last change was not saved here; free some space and try again. Changes saved before are safe.';

/** QuotaExceededError from IndexedDB, directly or wrapped by Dexie (`inner`). */
export function isQuotaError(error: unknown): boolean {
  let e = error as { name?: string; inner?: unknown } | null | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.name === 'QuotaExceededError' || e.name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
    e = e.inner as typeof e;
  }
  return false;
}

let target: SyncStatusStore = syncStatus;
/** Which status store storage errors go to (tests use their own). */
export function setStorageErrorTarget(store: SyncStatusStore): void {
  target = store;
}

/** Reports a quota error to the status store (the author sees it). Other errors are left to the caller. */
export function reportStorageError(error: unknown, store: SyncStatusStore = target): boolean {
  if (!isQuotaError(error)) return false;
  store.getState().reportError({ kind: 'quota', message: QUOTA_MESSAGE });
  return true;
}

/**
 * Asks the browser to keep this origin's data (once per database). Answers whether storage is
 * persistent; false when the API is missing or the browser said no.
 */
export async function requestPersistentStorage(db: ChroniclerDb): Promise<boolean> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return false;
  try {
    if (await storage.persisted?.()) return true;
    const state = await db.syncState.get('state');
    if (state?.persistRequested) return false;
    await db.syncState.update('state', { persistRequested: true });
    return await storage.persist();
  } catch {
    return false;
  }
}
