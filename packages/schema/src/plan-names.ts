/** The plan names (000 §1, §4, §3), apart from the plan table in plans.ts, which re-exports them. */

/** Lowest to highest (000 §1, §4). Access checks compare the index. */
export const PLAN_NAMES = ['apprentice', 'wordsmith', 'loremaster', 'legendary'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/**
 * Each plan's display name (the plan table in plans.ts carries them). Here, apart from the table
 * and its zod schemas, so the signed-in shell's first paint can name the plan without them.
 */
export const PLAN_DISPLAY_NAMES: Readonly<Record<PlanName, string>> = {
  apprentice: 'Apprentice',
  wordsmith: 'The Wordsmith',
  loremaster: 'Loremaster',
  legendary: 'Legendary Chronicler',
};

/** Sidebar footer text: "{plan} Plan", e.g. "The Wordsmith Plan". */
export function planLabel(plan: PlanName): string {
  return `${PLAN_DISPLAY_NAMES[plan]} Plan`;
}

/** A new account's plan (000 §3: "plan (lowercase plan name; default apprentice)"). */
export const DEFAULT_PLAN: PlanName = 'apprentice';

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

/** A stored or received plan name as a PlanName; anything unknown is the default plan. */
export function toPlanName(value: unknown): PlanName {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : value;
  return isPlanName(lower) ? lower : DEFAULT_PLAN;
}
