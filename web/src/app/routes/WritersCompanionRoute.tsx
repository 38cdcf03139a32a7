import { CompanionScreen, WritersCompanionPanel } from '@/features/companion';
import { useCurrentSeries } from '@/lib/useCurrentSeries';

/** The companion opened on the current series (docs/spec-differences.md: the spec shows no body for this page). */
export default function WritersCompanionRoute() {
  const { series } = useCurrentSeries();
  return (
    <CompanionScreen
      title="Writer's Companion"
      subtitle={series ? `Your companion for ${series.title || 'your current series'}` : 'Your companion for the current series'}
      initialSeriesId={series?.id ?? null}
      aside={<WritersCompanionPanel />}
    />
  );
}
