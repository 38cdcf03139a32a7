import {
  IconBooks,
  IconCreditCard,
  IconFeather,
  IconLayoutDashboard,
  IconShoppingBag,
  IconSparkles,
  IconTimeline,
  IconTrophy,
  IconUsers,
  IconUserCog,
  IconUsersGroup,
  IconWorld,
} from '@tabler/icons-react';
import { IconArchive } from '@tabler/icons-react';

export interface NavItem {
  label: string;
  to: string;
  icon: typeof IconBooks;
}

/** Sidebar links in the order of spec 000 §2 Layout. */
export const SIDEBAR_LINKS: readonly NavItem[] = [
  { label: 'Dashboard', to: '/', icon: IconLayoutDashboard },
  { label: 'Series', to: '/series', icon: IconBooks },
  { label: 'Characters', to: '/characters', icon: IconUsers },
  { label: 'World', to: '/world', icon: IconWorld },
  { label: 'Timeline', to: '/timeline', icon: IconTimeline },
  { label: 'AI Companion', to: '/ai-companion', icon: IconSparkles },
  { label: "Writer's Companion", to: '/writers-companion', icon: IconFeather },
  { label: 'Collaboration', to: '/collaboration', icon: IconUsersGroup },
  { label: 'Achievements', to: '/achievements', icon: IconTrophy },
  { label: 'Products', to: '/products', icon: IconShoppingBag },
  { label: 'Subscriptions', to: '/subscriptions', icon: IconCreditCard },
  { label: 'Account', to: '/account', icon: IconUserCog },
  { label: 'Backups', to: '/backups', icon: IconArchive },
];

/** The mobile drawer: the same links, except Writer's Companion points to /ai-companion. */
export const DRAWER_LINKS: readonly NavItem[] = SIDEBAR_LINKS.map((link) =>
  link.to === '/writers-companion' ? { ...link, to: '/ai-companion' } : link,
);

/** Dashboard is active on "/" only; every other link on its path and the paths below it. */
export function isLinkActive(to: string, pathname: string): boolean {
  if (to === '/') return pathname === '/';
  return pathname === to || pathname.startsWith(`${to}/`);
}
