import { IconUsersGroup } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function CollaborationRoute() {
  return (
    <PagePlaceholder
      title="Collaboration"
      subtitle="Write together with other authors"
      description="Shared series, invitations and co-authors will be managed from this page."
      icon={<IconUsersGroup size={30} stroke={1.5} />}
    />
  );
}
