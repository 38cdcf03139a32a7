/**
 * The characters-per-series limit (spec 000 §6; the plan table in @chronicler/schema), shown
 * BEFORE the server would refuse a create: a warning from two below the limit, and at the limit
 * the New Character button is locked with the tier upgrade message.
 */
import { PLANS, gateState, limitFor, UNLIMITED, type PlanName } from '@chronicler/schema';

/** Warn when this many or fewer characters are left before the limit. */
export const WARN_REMAINING = 2;

export interface CharacterLimitState {
  /** null when the plan has no limit. */
  limit: number | null;
  count: number;
  /** Near the limit (or at it): show the notice. */
  warn: boolean;
  /** At the limit: a create would be refused by the server. */
  locked: boolean;
  /** "8 of 10 characters on the Apprentice plan". */
  usage: string;
  /** The tier upgrade message when locked, '' otherwise. */
  message: string;
  /** The tier that lifts the limit (null when unlimited or none does). */
  requiredTier: PlanName | null;
}

export function characterLimitState(plan: PlanName, count: number): CharacterLimitState {
  const limit = limitFor(plan, 'charactersPerSeries');
  if (limit === UNLIMITED) return { limit: null, count, warn: false, locked: false, usage: '', message: '', requiredTier: null };
  const gate = gateState({ plan, limit: 'charactersPerSeries', count });
  return {
    limit,
    count,
    warn: count >= limit - WARN_REMAINING,
    locked: gate.locked,
    usage: `${count} of ${limit} characters on the ${PLANS[plan].displayName} plan`,
    message: gate.message,
    requiredTier: gate.locked ? gate.requiredTier : null,
  };
}
