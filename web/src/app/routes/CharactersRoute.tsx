import { IconUsers } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function CharactersRoute() {
  return (
    <PagePlaceholder
      title="Characters"
      subtitle="Keep every character of your series in view"
      description="Main, supporting and minor characters, with their relationship map, are on their way."
      icon={<IconUsers size={30} stroke={1.5} />}
    />
  );
}
