import { useParams } from 'react-router';
import { IconBook2 } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function SeriesDetailRoute() {
  const { id } = useParams();
  return (
    <PagePlaceholder
      title="Series"
      subtitle="The books of this series"
      description={`The books of series ${id ?? ''} with their chapters and progress will be listed here.`}
      icon={<IconBook2 size={30} stroke={1.5} />}
    />
  );
}
