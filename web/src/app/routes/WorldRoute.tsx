import { IconWorld } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function WorldRoute() {
  return (
    <PagePlaceholder
      title="World Building"
      subtitle="Locations, cultures and the rules of your world"
      description="Locations will live here first, followed by cultures, magic systems and more."
      icon={<IconWorld size={30} stroke={1.5} />}
    />
  );
}
