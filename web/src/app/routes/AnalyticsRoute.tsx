import { AnalyticsScreen } from '@/features/progress';

export default function AnalyticsRoute() {
  return <AnalyticsScreen />;
}
