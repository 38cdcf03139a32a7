import { AchievementsScreen } from '@/features/progress';

export default function AchievementsRoute() {
  return <AchievementsScreen />;
}
