import { useParams } from 'react-router';
import { ExportScreen } from '@/features/export';

export default function ExportRoute() {
  const { id = '' } = useParams();
  return <ExportScreen key={id} seriesId={id} />;
}
