/**
 * A numeric plan limit as the screens show it (spec 000 §6, 001 §6; docs/spec-differences.md: one
 * plan table in @chronicler/schema, shown and enforced): the count on a limited plan, a warning
 * from two below the limit, and at the limit the tier upgrade message, BEFORE the server would
 * refuse a create. The server enforces the same table; a create it refuses comes back as a dead
 * letter and the sync provider toasts the reason.
 */
import {
  PLANS,
  UNLIMITED,
  gateState,
  limitFor,
  type LimitName,
  type PlanName,
} from '@chronicler/schema';
import { VALIDATION_TOASTS, featureLockedToast, type ToastContent } from '@/lib/copy/toasts';
import { toast } from './toast';

/** Warn when this many or fewer items are left before the limit. */
export const WARN_REMAINING = 2;

export interface PlanLimitState {
  /** null when the plan has no limit. */
  limit: number | null;
  count: number;
  /** Near the limit (or at it): show the notice. */
  warn: boolean;
  /** At the limit: a create would be refused by the server. */
  locked: boolean;
  /** "8 of 10 characters on the Apprentice plan"; '' when unlimited. */
  usage: string;
  /** The tier upgrade message when locked, '' otherwise. */
  message: string;
  /** The tier that lifts the limit when locked (null when open or when no tier does). */
  requiredTier: PlanName | null;
}

/** What a limit counts, for one and for many. */
const NOUNS: Partial<Record<LimitName, readonly [string, string]>> = {
  series: ['series', 'series'],
  booksPerSeries: ['book', 'books'],
  charactersPerSeries: ['character', 'characters'],
  locationsPerSeries: ['location', 'locations'],
};

export function planLimitState(plan: PlanName, limitName: LimitName, count: number): PlanLimitState {
  const limit = limitFor(plan, limitName);
  const [one, many] = NOUNS[limitName] ?? ['item', 'items'];
  if (limit === UNLIMITED) return { limit: null, count, warn: false, locked: false, usage: '', message: '', requiredTier: null };
  const gate = gateState({ plan, limit: limitName, count });
  return {
    limit,
    count,
    warn: count >= limit - WARN_REMAINING,
    locked: gate.locked,
    usage: `${count} of ${limit} ${limit === 1 ? one : many} on the ${PLANS[plan].displayName} plan`,
    message: gate.locked ? limitReachedMessage(limit, many, gate.requiredTier) : '',
    requiredTier: gate.locked ? gate.requiredTier : null,
  };
}

/**
 * A count limit is worded as a limit (docs/spec-differences.md), not as "This feature requires the
 * … tier": the author can use the feature, and has used all of what the plan allows.
 */
function limitReachedMessage(limit: number, many: string, tier: PlanName | null): string {
  const all = `You have used all ${limit} ${many} your plan allows${limit === 1 || many === 'series' ? '' : ' in this series'}.`;
  return tier === null ? all : `${all} Upgrade to ${PLANS[tier].displayName} to add more.`;
}

/** The toast of a New button pressed at the limit: the tier's 'Feature Locked' toast, else the message. */
export function limitLockedToast(state: PlanLimitState): ToastContent {
  return state.requiredTier ? featureLockedToast(state.requiredTier) : { title: 'Feature Locked', message: state.message, variant: 'default' };
}

/**
 * Whether a series-scoped New button may open its dialog: with no series selected it toasts 'No
 * series selected', at the limit (`locked`: the author owns the series and it is full) the lock.
 */
export function mayCreateInSeries(seriesId: string | null, locked: boolean, state: PlanLimitState): boolean {
  if (!seriesId) {
    toast.show(VALIDATION_TOASTS.noSeriesSelected);
    return false;
  }
  if (locked) {
    toast.show(limitLockedToast(state));
    return false;
  }
  return true;
}
