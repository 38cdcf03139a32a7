export { DashboardScreen, type DashboardScreenProps } from './DashboardScreen';
export { DashboardSkeleton } from './DashboardSkeleton';
export { AchievementsScreen } from './AchievementsScreen';
export { AnalyticsScreen } from './AnalyticsScreen';
