import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { planLabel } from '@chronicler/schema';
import { Drawer } from '@/lib/first-load';
import type { User } from '@/lib/session';
import { BrandMark } from '@/components/BrandMark';
import { initialsOf } from './initials';
import { DRAWER_LINKS, isLinkActive } from './nav-links';
import { layoutClasses as classes } from './layoutClasses';

// Apart from the top bar (MobileNav.tsx): the shell's first paint has no drawer, so Mantine's
// Drawer and its focus trap stay out of it (docs/web.md#first-load).
export interface MobileDrawerProps {
  opened: boolean;
  onClose: () => void;
  user: User | null;
  onSignOut: () => void;
  signingOut?: boolean;
  /** SLOT: the Current Series card, on the screens that show it. */
  currentSeries?: ReactNode;
}

/** The mobile menu drawer: the sidebar links (Writer's Companion → /ai-companion) and Sign Out. */
export function MobileDrawer({ opened, onClose, user, onSignOut, signingOut = false, currentSeries }: MobileDrawerProps) {
  const { pathname } = useLocation();
  return (
    <Drawer
      id="mobile-menu"
      opened={opened}
      onClose={onClose}
      size={300}
      padding="md"
      title={<BrandMark size={28} />}
      closeButtonProps={{ 'aria-label': 'Close menu' }}
      classNames={{ body: classes.drawerBody }}
    >
      <nav className={classes.nav} aria-label="Mobile">
        {DRAWER_LINKS.map(({ label, to, icon: Icon }) => {
          const active = isLinkActive(to, pathname);
          return (
            <Link
              key={label}
              to={to}
              onClick={onClose}
              className={classes.navLink}
              data-active={active || undefined}
              aria-current={active ? 'page' : undefined}
            >
              <Icon className={classes.navIcon} size={20} stroke={1.75} aria-hidden />
              <span className={classes.navLabel}>{label}</span>
            </Link>
          );
        })}
      </nav>
      {currentSeries ? <div className={classes.seriesSlot}>{currentSeries}</div> : null}
      <div className={classes.drawerFooter}>
        {user ? (
          <div className={classes.userRow}>
            <span className={classes.avatar} aria-hidden>
              {initialsOf(user.displayName, user.username)}
            </span>
            <div className={classes.userText}>
              <Text fw={600} size="sm" truncate="end">
                {user.displayName}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {planLabel(user.plan)}
              </Text>
            </div>
          </div>
        ) : null}
        <Button
          fullWidth
          variant="default"
          leftSection={<IconLogout size={18} stroke={1.75} />}
          onClick={onSignOut}
          loading={signingOut}
        >
          Sign Out
        </Button>
      </div>
    </Drawer>
  );
}
