/**
 * The locations-per-series limit (spec 000 §6, 001 §6; the one plan table in @chronicler/schema),
 * shown BEFORE the server would refuse a create: the count on a limited plan, a warning from two
 * below the limit, and at the limit New Element is locked with the tier upgrade message.
 */
import { PLANS, UNLIMITED, gateState, limitFor, type PlanName } from '@chronicler/schema';

/** Warn when this many or fewer locations are left before the limit. */
export const WARN_REMAINING = 2;

export interface LocationLimitState {
  /** null when the plan has no limit. */
  limit: number | null;
  count: number;
  /** Near the limit (or at it). */
  warn: boolean;
  /** At the limit: a create would be refused by the server. */
  locked: boolean;
  /** "8 of 10 locations on the Apprentice plan"; '' when unlimited. */
  usage: string;
  /** The tier upgrade message when locked, '' otherwise. */
  message: string;
  /** The tier that lifts the limit when locked (null when open or when no tier does). */
  requiredTier: PlanName | null;
}

export function locationLimitState(plan: PlanName, count: number): LocationLimitState {
  const limit = limitFor(plan, 'locationsPerSeries');
  if (limit === UNLIMITED) return { limit: null, count, warn: false, locked: false, usage: '', message: '', requiredTier: null };
  const gate = gateState({ plan, limit: 'locationsPerSeries', count });
  return {
    limit,
    count,
    warn: count >= limit - WARN_REMAINING,
    locked: gate.locked,
    usage: `${count} of ${limit} ${limit === 1 ? 'location' : 'locations'} on the ${PLANS[plan].displayName} plan`,
    message: gate.message,
    requiredTier: gate.locked ? gate.requiredTier : null,
  };
}
