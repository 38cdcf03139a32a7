import { SeriesScreen } from '@/features/series';

export default function SeriesRoute() {
  return <SeriesScreen />;
}
