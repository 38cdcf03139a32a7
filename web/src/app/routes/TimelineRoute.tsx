import { IconTimeline } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function TimelineRoute() {
  return (
    <PagePlaceholder
      title="Timeline"
      subtitle="Chart the chronology of your story"
      description="Chronological, narrative and character views of your story's events are being built."
      icon={<IconTimeline size={30} stroke={1.5} />}
    />
  );
}
