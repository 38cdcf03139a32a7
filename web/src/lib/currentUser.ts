/**
 * The signed-in author's own record (the user-scoped synced kind `users`: plan, time zone …) bound
 * to the session (docs/architecture.md#whose-rows-a-device-holds: it syncs like any row; a plan set
 * by the operator command, a payment or another device reaches this app through the changes feed
 * and its SSE poke).
 *
 * - Every newer version of the record (a higher rev than the one found at start) becomes the
 *   session's user (lib/session.ts followSyncedUser): the sidebar's plan label, FeatureGate and the
 *   plan limits read it. The version found at start is used only when the session runs on the
 *   remembered user (offline start); online, GET /api/user answered something at least as fresh.
 * - The author's time zone: when the record says none, the browser's IANA zone is stored
 *   (PUT /api/user/settings), once per start; it is retried on the next start if that fails. A new
 *   author's first start asks it as the first pull lands, while the dashboard draws: it waits a few
 *   seconds (`TIME_ZONE_SAVE_DELAY_MS`), since its request and the pull that its own change's poke
 *   sets off were otherwise work ahead of the first screenful (docs/web.md#first-load). Only the
 *   counting of writing days needs it, and that is by day.
 */
import { liveQuery } from 'dexie';
import { type ChroniclerDb, currentUserRecord } from '@chronicler/sync-client';
import type { UserRecord } from '@chronicler/schema';
import { api } from './api';
import { followSyncedUser, useCurrentUser, useSession } from './session';

export { useCurrentUser };

/** The browser's IANA zone, or null when it does not say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** How long after the record is first seen without a zone the browser's zone is stored. */
export const TIME_ZONE_SAVE_DELAY_MS = 3_000;

export interface BindOptions {
  /** Stores the zone (tests replace it). */
  saveTimeZone?: (timeZone: string) => Promise<unknown>;
  timeZone?: () => string | null;
  /** Default TIME_ZONE_SAVE_DELAY_MS. */
  zoneDelayMs?: number;
}

/** Keeps the session's user on the synced record of `db`'s author; returns the unbind. */
export function bindSessionToSyncedUser(db: ChroniclerDb, options: BindOptions = {}): () => void {
  const saveTimeZone = options.saveTimeZone ?? ((timeZone: string) => api.put('/api/user/settings', { timeZone }));
  const zoneOf = options.timeZone ?? browserTimeZone;
  let firstSeen = true;
  let startRev = -1;
  let zoneAsked = false;
  let zoneTimer: ReturnType<typeof setTimeout> | undefined;

  const onRecord = (record: UserRecord | undefined) => {
    if (!record) {
      firstSeen = false;
      return;
    }
    if (firstSeen) {
      firstSeen = false;
      startRev = record.rev;
      if (useSession.getState().source === 'cache') followSyncedUser(record);
    } else if (record.rev > startRev) {
      followSyncedUser(record);
    }
    const zone = zoneOf();
    if (record.timeZone === null && zone && !zoneAsked) {
      zoneAsked = true;
      zoneTimer = setTimeout(() => {
        saveTimeZone(zone).catch(() => undefined); // the next start asks again
      }, options.zoneDelayMs ?? TIME_ZONE_SAVE_DELAY_MS);
    }
  };
  const subscription = liveQuery(() => currentUserRecord(db)).subscribe({ next: onRecord, error: () => undefined });
  return () => {
    subscription.unsubscribe();
    clearTimeout(zoneTimer);
  };
}
