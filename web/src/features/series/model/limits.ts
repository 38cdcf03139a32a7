/**
 * Apprentice plan limits shown before the author hits them (spec 000 §6, 001 §6; DESIGN.md §5: one
 * plan table, shown and enforced). The server enforces the same table; a create it refuses comes
 * back as a dead letter and the sync provider toasts the reason.
 */
import { PLANS, gateState, limitFor, type LimitName, type PlanName } from '@chronicler/schema';

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

const NOUNS: Partial<Record<LimitName, [string, string]>> = {
  series: ['series', 'series'],
  booksPerSeries: ['book', 'books'],
};

export function limitNotice(plan: PlanName, limit: LimitName, count: number): LimitNotice {
  const max = limitFor(plan, limit);
  const gate = gateState({ plan, limit, count });
  const [one, many] = NOUNS[limit] ?? ['item', 'items'];
  const usage = max < 0 ? null : `${count} of ${max} ${max === 1 ? one : many} on the ${PLANS[plan].displayName} plan`;
  return { locked: gate.locked, usage, message: gate.message, canUpgrade: gate.requiredTier !== null };
}
