import { TimelineScreen } from '@/features/timeline';

export default function TimelineRoute() {
  return <TimelineScreen />;
}
