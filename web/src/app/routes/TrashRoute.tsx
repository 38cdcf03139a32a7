import { useParams } from 'react-router';
import { TrashScreen } from '@/features/series';

export default function TrashRoute() {
  const { id = '' } = useParams();
  return <TrashScreen key={id} seriesId={id} />;
}
