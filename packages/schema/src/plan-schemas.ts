/**
 * The zod schemas of the plan table (plans.ts), apart from it: the web app reads the table on its
 * signed-in first screen, and zod is downloaded only when something is written (issue 16).
 */
import './zod-browser.ts';
import { z } from 'zod';
import { FEATURE_NAMES, LIMIT_NAMES } from './plans.ts';
import { PLAN_NAMES, type PlanName } from './plan-names.ts';

export const planNameSchema = z.enum(PLAN_NAMES);

const storedPlanSchema = planNameSchema.catch('apprentice');
/** A plan as stored on an author's record: apprentice when missing or not a plan (any more). */
export function storedPlan(value: unknown): PlanName {
  return storedPlanSchema.parse(value);
}

export const limitNameSchema = z.enum(LIMIT_NAMES);
export const featureNameSchema = z.enum(FEATURE_NAMES);
