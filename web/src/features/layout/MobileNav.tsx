import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ActionIcon } from '@mantine/core';
import { IconMenu2 } from '@tabler/icons-react';
import { BrandMark } from '@/components/BrandMark';
import { layoutClasses as classes } from './layoutClasses';

interface MobileTopBarProps {
  onOpenMenu: () => void;
  menuOpen: boolean;
  /** SLOT: the sync engine's indicator (compact). */
  syncIndicator?: ReactNode;
  themeControl?: ReactNode;
  /** SLOT: the way into search (SearchButton, compact). */
  search?: ReactNode;
}

/** Fixed top bar on small screens: product name and a menu button (spec 000 §2 Layout). */
export function MobileTopBar({ onOpenMenu, menuOpen, syncIndicator, themeControl, search }: MobileTopBarProps) {
  return (
    <section className={classes.topBar} aria-label="Top bar">
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        onClick={onOpenMenu}
        aria-label="Open menu"
        aria-expanded={menuOpen}
        aria-controls="mobile-menu"
      >
        <IconMenu2 size={22} stroke={1.75} />
      </ActionIcon>
      <Link to="/" className={classes.brandLink} aria-label="Chronicler home">
        <BrandMark size={28} />
      </Link>
      <div className={classes.topBarActions}>
        {search}
        {syncIndicator}
        {themeControl}
      </div>
    </section>
  );
}
