import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { ActionIcon, Text } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconLogout } from '@tabler/icons-react';
import { planLabel } from '@chronicler/schema';
import type { User } from '@/lib/session';
import { BrandMark } from '@/components/BrandMark';
import { DeferredTooltip } from '@/lib/first-load';
import { initialsOf } from './initials';
import { SIDEBAR_LINKS, isLinkActive } from './nav-links';
import { useSidebarStore } from './sidebar-store';
import { layoutClasses as classes } from './layoutClasses';

export interface SidebarProps {
  user: User | null;
  onSignOut: () => void;
  signingOut?: boolean;
  /** SLOT: the sync engine's indicator. */
  syncIndicator?: ReactNode;
  /** Theme picker. */
  themeControl?: ReactNode;
  /** SLOT: the Current Series card, on the screens that show it. */
  currentSeries?: ReactNode;
  /** SLOT: the way into search (SearchButton, wired by the app). */
  search?: ReactNode;
}

/** The desktop sidebar (spec 000 §2 Layout). Hidden below the `sm` breakpoint. */
export function Sidebar({ user, onSignOut, signingOut = false, syncIndicator, themeControl, currentSeries, search }: SidebarProps) {
  const { pathname } = useLocation();
  const collapsed = useSidebarStore((s) => s.collapsed);
  const toggle = useSidebarStore((s) => s.toggle);
  const CollapseIcon = collapsed ? IconLayoutSidebarLeftExpand : IconLayoutSidebarLeftCollapse;
  const collapseLabel = collapsed ? 'Expand sidebar' : 'Collapse sidebar';

  return (
    <aside className={classes.sidebar} data-collapsed={collapsed || undefined} aria-label="Sidebar">
      <div className={classes.sidebarHeader}>
        <Link to="/" className={classes.brandLink} aria-label="Chronicler home">
          <BrandMark compact={collapsed} />
        </Link>
        <DeferredTooltip label={collapseLabel} position="right" withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={toggle}
            aria-label={collapseLabel}
            aria-expanded={!collapsed}
            data-testid="sidebar-toggle"
          >
            <CollapseIcon size={20} stroke={1.75} />
          </ActionIcon>
        </DeferredTooltip>
      </div>

      <div className={classes.toolsRow}>
        {/* SLOT: the sync indicator (app/layout passes sync-problems' SyncIndicator) */}
        {syncIndicator}
        {themeControl}
      </div>

      {search ? <div className={classes.searchRow}>{search}</div> : null}

      <nav className={classes.nav} aria-label="Main">
        {SIDEBAR_LINKS.map(({ label, to, icon: Icon }) => {
          const active = isLinkActive(to, pathname);
          const link = (
            <Link
              key={to}
              to={to}
              className={classes.navLink}
              data-active={active || undefined}
              aria-current={active ? 'page' : undefined}
              aria-label={collapsed ? label : undefined}
            >
              <Icon className={classes.navIcon} size={20} stroke={1.75} aria-hidden />
              {collapsed ? null : <span className={classes.navLabel}>{label}</span>}
            </Link>
          );
          // Collapsed, the label becomes the link's tooltip.
          return collapsed ? (
            <DeferredTooltip key={to} label={label} position="right" withArrow>
              {link}
            </DeferredTooltip>
          ) : (
            link
          );
        })}
      </nav>

      {/* SLOT: Current Series card */}
      {currentSeries && !collapsed ? <div className={classes.seriesSlot}>{currentSeries}</div> : null}

      <div className={classes.sidebarFooter}>
        <div className={classes.userRow}>
          {user ? (
            <>
              <span className={classes.avatar} aria-hidden>
                {initialsOf(user.displayName, user.username)}
              </span>
              {collapsed ? null : (
                <div className={classes.userText}>
                  <Text fw={600} size="sm" truncate="end" data-testid="sidebar-user-name">
                    {user.displayName}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end" data-testid="sidebar-user-plan">
                    {planLabel(user.plan)}
                  </Text>
                </div>
              )}
            </>
          ) : null}
          <DeferredTooltip label="Log out" position="right" withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={onSignOut}
              loading={signingOut}
              aria-label="Log out"
            >
              <IconLogout size={18} stroke={1.75} />
            </ActionIcon>
          </DeferredTooltip>
        </div>
      </div>
    </aside>
  );
}
