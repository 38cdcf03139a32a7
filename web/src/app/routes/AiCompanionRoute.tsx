import { IconSparkles } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function AiCompanionRoute() {
  return (
    <PagePlaceholder
      title="AI Companion"
      subtitle="Suggestions and analysis drawn from your own series"
      description="Plot ideas, character development, dialogue and world-building suggestions for the series you choose."
      icon={<IconSparkles size={30} stroke={1.5} />}
    />
  );
}
