export { Sidebar, type SidebarProps } from './Sidebar';
export { MobileTopBar } from './MobileNav';
export { MobileDrawer } from './DeferredMobileDrawer';
export { ShellFrame } from './ShellFrame';
export { SIDEBAR_LINKS, DRAWER_LINKS, isLinkActive } from './nav-links';
export { useSidebarStore, SIDEBAR_COLLAPSED_KEY } from './sidebar-store';
export { initialsOf } from './initials';
export { SearchButton, type SearchButtonProps } from './SearchButton';
