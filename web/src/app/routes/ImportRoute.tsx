import { useParams } from 'react-router';
import { ImportScreen } from '@/features/import';

export default function ImportRoute() {
  const { id = '' } = useParams();
  return <ImportScreen key={id} seriesId={id} />;
}
