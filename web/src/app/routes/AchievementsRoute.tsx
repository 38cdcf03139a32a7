import { IconTrophy } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function AchievementsRoute() {
  return (
    <PagePlaceholder
      title="Achievements"
      subtitle="Milestones earned on your writing journey"
      description="Your badges, streaks and progress towards the next achievement will be shown here."
      icon={<IconTrophy size={30} stroke={1.5} />}
    />
  );
}
