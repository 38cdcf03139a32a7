import { IconBooks } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function SeriesRoute() {
  return (
    <PagePlaceholder
      title="Series"
      subtitle="Plan your series and the books in them"
      description="Your series will appear here as cards with their progress, ready to open, edit and extend with new books."
      icon={<IconBooks size={30} stroke={1.5} />}
    />
  );
}
