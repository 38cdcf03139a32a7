import type { ReactNode } from 'react';
import { useSidebarStore } from './sidebar-store';
import { layoutClasses as classes } from './layoutClasses';

interface ShellFrameProps {
  sidebar: ReactNode;
  topBar: ReactNode;
  drawer: ReactNode;
  children: ReactNode;
  /** The outline painted before the signed-in app has loaded (aria-busy until it has). */
  pending?: boolean;
}

/**
 * Places the sidebar, the mobile top bar and the page. The content margin follows the sidebar
 * width: wide when expanded, narrow when collapsed (spec 000 §2 Layout).
 */
export function ShellFrame({ sidebar, topBar, drawer, children, pending = false }: ShellFrameProps) {
  const collapsed = useSidebarStore((s) => s.collapsed);
  return (
    <div className={classes.shell} data-collapsed={collapsed || undefined} aria-busy={pending || undefined} data-testid="app-shell">
      <a href="#main-content" className={classes.skipLink}>
        Skip to content
      </a>
      {sidebar}
      {topBar}
      {drawer}
      <main id="main-content" className={classes.main} tabIndex={-1} data-testid="main-content">
        <div className={classes.content}>
          {children}
        </div>
      </main>
    </div>
  );
}
