/**
 * The author's billing state on this device (docs/server.md#billing). Entitlements are user-scoped
 * synced rows: the screens read them from the local database (so owned products work offline); the
 * status answer (subscription as Stripe last told the server) is kept per author in localStorage
 * for the offline page, and refreshed whenever the device is online. The plan itself reaches every
 * screen through the author's synced record (the session follows it live).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BillingStatus, Entitlement, ProductId } from '@chronicler/schema';
import { keepEntitlements } from '@chronicler/sync-client';
import { api } from '@/lib/api';
import { useSession } from '@/lib/session';
import { readLocalJson, writeLocal } from '@/lib/storage';
import { useDb } from '@/lib/sync';
import { useOnline } from '@/lib/useOnline';
import { useEntitlements, useOwnedProducts } from '@/lib/useOwnedProducts';

const statusKey = (userId: string) => `chronicler:billing-status:${userId}`;

export type LoadState = 'loading' | 'ready' | 'error';

export interface BillingState {
  status: BillingStatus | null;
  state: LoadState;
  online: boolean;
  entitlements: Entitlement[];
  owned: ReadonlySet<ProductId>;
  /** Asks the server again; resolves with the new status (null when it could not be reached). */
  refresh(): Promise<BillingStatus | null>;
}

export function useBilling(): BillingState {
  const user = useSession((s) => s.user);
  const userId = user?.id ?? '';
  const db = useDb();
  const online = useOnline();
  const [status, setStatus] = useState<BillingStatus | null>(() => (userId ? readLocalJson<BillingStatus>(statusKey(userId)) : null));
  const [state, setState] = useState<LoadState>(status ? 'ready' : 'loading');
  const hasStatus = useRef(status !== null);

  const refresh = useCallback(async (): Promise<BillingStatus | null> => {
    try {
      const next = await api.get<BillingStatus>('/api/billing/status');
      setStatus(next);
      hasStatus.current = true;
      setState('ready');
      writeLocal(statusKey(userId), JSON.stringify(next));
      await keepEntitlements(db, next.entitlements);
      return next;
    } catch {
      setState(hasStatus.current ? 'ready' : 'error');
      return null;
    }
  }, [db, userId]);

  useEffect(() => {
    if (online && userId) void refresh();
    else if (!online) setState(hasStatus.current ? 'ready' : 'error');
  }, [online, userId, refresh]);

  const entitlements = useEntitlements();
  const owned = useOwnedProducts();
  return { status, state, online, entitlements, owned, refresh };
}
