/**
 * Class names of the dashboard outline's (DashboardSkeleton) stylesheet, DashboardSkeleton.css: plain CSS with global names, not a CSS module, so that
 * main.tsx can put it in the entry's stylesheet (a module shared by the entry and a lazy chunk
 * became a file of its own, one more request before the first screen; issue 16). Each name is
 * checked against the stylesheet by styles/firstScreenStyles.test.ts.
 */
export const dashboardSkeletonClasses = {
  column: 'dashboard-skeleton-column',
  grid: 'dashboard-skeleton-grid',
  stats: 'dashboard-skeleton-stats',
} as const;
