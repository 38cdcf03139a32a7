/**
 * The premium products the signed-in author owns, live from the local database:
 * entitlements are user-scoped synced rows, so owned products keep working offline. Any feature
 * may gate on it (the theme pack, the inspiration pack, the toolkit).
 */
import { useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { type Entitlement, type ProductId, ownedProducts } from '@chronicler/schema';
import { useSession } from '@/lib/session';
import { useOptionalSync } from '@/lib/sync';

const NONE: Entitlement[] = [];

/** The author's entitlement rows on this device. */
export function useEntitlements(): Entitlement[] {
  const userId = useSession((s) => s.user?.id ?? '');
  const db = useOptionalSync()?.db ?? null;
  return useLiveQuery(async () => (db ? db.entitlements.where('userId').equals(userId).toArray() : NONE), [db, userId], NONE);
}

export function useOwnedProducts(): ReadonlySet<ProductId> {
  const entitlements = useEntitlements();
  return useMemo(() => ownedProducts(entitlements, Date.now()), [entitlements]);
}

export function useOwnsProduct(product: ProductId): boolean {
  return useOwnedProducts().has(product);
}

/**
 * The owned products and whether they are known: `loaded` is false while the local database is
 * still answering, before this device's first pull from the server (a new device has no
 * entitlements yet, which says nothing), and outside a signed-in session (no database), so a
 * caller never takes "not known yet" for "not owned".
 */
export function useOwnedProductsState(): { owned: ReadonlySet<ProductId>; loaded: boolean } {
  const userId = useSession((s) => s.user?.id ?? '');
  const db = useOptionalSync()?.db ?? null;
  const read = useLiveQuery(async () => {
    if (!db) return undefined;
    const [rows, state] = await Promise.all([db.entitlements.where('userId').equals(userId).toArray(), db.syncState.get('state')]);
    return { rows, pulled: (state?.lastSyncedAt ?? null) !== null };
  }, [db, userId]);
  const owned = useMemo(() => ownedProducts(read?.rows ?? NONE, Date.now()), [read]);
  return { owned, loaded: read !== undefined && read.pulled };
}
