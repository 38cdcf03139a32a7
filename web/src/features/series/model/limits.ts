/**
 * Apprentice plan limits shown before the author hits them (spec 000 §6, 001 §6;
 * docs/spec-differences.md: one plan table, shown and enforced), in the shape the series screens'
 * notice takes. The counting and wording are the shared lib/limits.
 */
import type { LimitName, PlanName } from '@chronicler/schema';
import { planLimitState } from '@/lib/limits';

export interface LimitNotice {
  /** No more items may be added on this plan. */
  locked: boolean;
  /** "2 of 3 books on the Apprentice plan"; null when the plan has no limit. */
  usage: string | null;
  /** The upgrade message when locked ('' when open). */
  message: string;
  /** Whether an upgrade would lift it (the Upgrade link is shown). */
  canUpgrade: boolean;
}

export function limitNotice(plan: PlanName, limit: LimitName, count: number): LimitNotice {
  const state = planLimitState(plan, limit, count);
  return { locked: state.locked, usage: state.limit === null ? null : state.usage, message: state.message, canUpgrade: state.requiredTier !== null };
}
