import { IconFeather } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function WritersCompanionRoute() {
  return (
    <PagePlaceholder
      title="Writer's Companion"
      subtitle="Your AI companion for the current series"
      description="The companion will open on your current series, with suggestions and an analysis of your writing."
      icon={<IconFeather size={30} stroke={1.5} />}
    />
  );
}
