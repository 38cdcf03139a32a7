/**
 * The signed-in shell's class names (ShellFrame, Sidebar, MobileNav, MobileDrawer), defined in
 * layout.css: plain CSS with global names, not a CSS module, so that main.tsx puts it in the
 * entry's stylesheet (a CSS module shared by the entry and a lazy chunk became a file of its own:
 * one more request before the first screen). styles/first-screens.test.ts checks each name against
 * the stylesheet.
 */
export const layoutClasses = {
  avatar: 'app-shell-avatar',
  brandLink: 'app-shell-brand-link',
  content: 'app-shell-content',
  drawerBody: 'app-shell-drawer-body',
  drawerFooter: 'app-shell-drawer-footer',
  main: 'app-shell-main',
  nav: 'app-shell-nav',
  navIcon: 'app-shell-nav-icon',
  navLabel: 'app-shell-nav-label',
  navLink: 'app-shell-nav-link',
  searchButton: 'app-shell-search-button',
  searchKbd: 'app-shell-search-kbd',
  searchLabel: 'app-shell-search-label',
  searchRow: 'app-shell-search-row',
  seriesSlot: 'app-shell-series-slot',
  shell: 'app-shell',
  sidebar: 'app-shell-sidebar',
  sidebarFooter: 'app-shell-sidebar-footer',
  sidebarHeader: 'app-shell-sidebar-header',
  skipLink: 'app-shell-skip-link',
  toolsRow: 'app-shell-tools-row',
  topBar: 'app-shell-top-bar',
  topBarActions: 'app-shell-top-bar-actions',
  userRow: 'app-shell-user-row',
  userText: 'app-shell-user-text',
} as const;
