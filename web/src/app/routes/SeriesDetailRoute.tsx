import { useParams } from 'react-router';
import { SeriesDetailScreen } from '@/features/series';

export default function SeriesDetailRoute() {
  const { id = '' } = useParams();
  return <SeriesDetailScreen key={id} seriesId={id} />;
}
