import { useEffect } from 'react';
import { useOwnedProductsState } from '@/lib/useOwnedProducts';
import { useThemePackOwnership } from '@/lib/themePackOwnership';

/** Keeps lib/themePackOwnership in step with the signed-in author's entitlements; renders nothing. */
export function ThemePackOwnershipFromEntitlements() {
  const { owned, loaded } = useOwnedProductsState();
  const owns = owned.has('custom-theme-pack');
  const set = useThemePackOwnership((s) => s.set);
  useEffect(() => {
    set({ owns, loaded });
    // Signed out: nothing is known about the next author.
    return () => set({ owns: false, loaded: false });
  }, [owns, loaded, set]);
  return null;
}
