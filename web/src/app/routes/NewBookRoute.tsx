import { useParams } from 'react-router';
import { NewBookScreen } from '@/features/series';

export default function NewBookRoute() {
  const { id = '' } = useParams();
  return <NewBookScreen key={id} seriesId={id} />;
}
