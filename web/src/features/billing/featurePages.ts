import { FEATURE_LABELS, type FeatureName } from '@chronicler/schema';

/**
 * Where a plan card's feature line leads (the feature's page, locked or not), so a feature the
 * plan table sells is one click from the plan card.
 */
const FEATURE_PAGES: Partial<Record<FeatureName, string>> = {
  analytics: '/analytics',
  sharingMilestones: '/achievements?tab=earned',
  timeline: '/timeline',
  collaboration: '/collaboration',
};

const PAGE_BY_LABEL = new Map(Object.entries(FEATURE_PAGES).map(([feature, path]) => [FEATURE_LABELS[feature as FeatureName], path]));

/** The page of a plan card's feature line, by its label; undefined when it has none. */
export function featurePage(label: string): string | undefined {
  return PAGE_BY_LABEL.get(label);
}
