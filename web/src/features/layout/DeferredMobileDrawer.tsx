import { lazy } from 'react';
import { OpenedOnce } from '@/lib/first-load';
import type { MobileDrawerProps } from './MobileDrawer';

// Mantine's Drawer (its focus trap, scroll lock and portal), downloaded and mounted the first time
// the menu opens: mounted closed in the signed-in shell's first commit, it re-rendered
// synchronously there (docs/web.md#first-load).
const MobileDrawerLayer = lazy(() => import('./MobileDrawer').then((m) => ({ default: m.MobileDrawer })));

/** The mobile menu drawer (MobileDrawer), loaded and mounted when first opened. */
export function MobileDrawer(props: MobileDrawerProps) {
  return <OpenedOnce opened={props.opened}>{(opened) => <MobileDrawerLayer {...props} opened={opened} />}</OpenedOnce>;
}
