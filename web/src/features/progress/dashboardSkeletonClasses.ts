/**
 * The dashboard outline's class names (DashboardSkeleton), defined in DashboardSkeleton.css: plain
 * CSS with global names, not a CSS module, so that main.tsx puts it in the entry's stylesheet (a
 * CSS module shared by the entry and a lazy chunk became a file of its own: one more request before
 * the first screen). styles/first-screens.test.ts checks each name against the stylesheet.
 */
export const dashboardSkeletonClasses = {
  column: 'dashboard-skeleton-column',
  grid: 'dashboard-skeleton-grid',
  stats: 'dashboard-skeleton-stats',
} as const;
