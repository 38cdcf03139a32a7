/**
 * THE plan table (docs/spec-differences.md: "one plan table, shown and enforced";
 * docs/server.md#plan-limits-and-feature-gates).
 *
 * The server enforces limits and feature gates from this table, the web app locks and warns from it,
 * and the Subscriptions page (plan cards and the Compare Features tab) is drawn from it, so what an
 * author is shown is exactly what is enforced.
 *
 * Sources: spec 000 §1 (tier order, display names), §4 (feature gate), §6 (limits by tier, -1 means
 * unlimited), §9 (prices, yearly discount); spec 001 §6 (collaboration is Loremaster and above).
 * The spec's §9 comparison table disagrees with §6; we show what we enforce (§6), and reuse §9's
 * export wording ("PDF and TXT", "PDF, DOCX and TXT", "All Formats") for the export levels.
 * The spec's table gives pictures only a total (Cloud storage GB); the largest one picture
 * (`pictureMb`: 5, 10, 20, 25 MB) is ours, sized for a display picture, its thumbnail and a detailed
 * world map (docs/decisions/0022-pictures-on-the-server.md). Apprentice has no `multimedia`: its
 * figures are shown but no upload reaches them.
 */
import './zod-browser.ts';
import { z } from 'zod';
import { PLAN_DISPLAY_NAMES, PLAN_NAMES, type PlanName } from './plan-names.ts';

// ---------------------------------------------------------------------------------------------
// Names and order

// The names, the default and their checks are in plan-names.ts, so code that only reads a plan name
// (the web app's session on its first screen) loads none of the table (docs/web.md#first-load).
export * from './plan-names.ts';
export const planNameSchema = z.enum(PLAN_NAMES);

const storedPlanSchema = planNameSchema.catch('apprentice');
/** A plan as stored on an author's record: apprentice when missing or not a plan (any more). */
export function storedPlan(value: unknown): PlanName {
  return storedPlanSchema.parse(value);
}

/** Unlimited, as in the spec's limit table (000 §6). */
export const UNLIMITED = -1;

// ---------------------------------------------------------------------------------------------
// Limits and features

export type ExportLevel = 'basic' | 'advanced' | 'premium';
export type BackupFrequency = 'weekly' | 'daily' | 'realtime';
export type PlatformAccess = 'web' | 'web-mobile' | 'all';

export interface PlanLimits {
  /** Series an author may own. */
  readonly series: number;
  readonly booksPerSeries: number;
  readonly charactersPerSeries: number;
  readonly locationsPerSeries: number;
  /** AI suggestions (and analyses) per day. */
  readonly aiSuggestionsPerDay: number;
  /** Pictures kept on the server for the series an author owns, in GB (2^30 bytes). */
  readonly cloudStorageGb: number;
  /** The largest one picture may be, in MB (2^20 bytes); pictures need `multimedia` (docs/decisions/0022-pictures-on-the-server.md). */
  readonly pictureMb: number;
  readonly export: ExportLevel;
  readonly backup: BackupFrequency;
  readonly platforms: PlatformAccess;
}

/** The numeric limits: what `limitFor` and `isWithinLimit` accept. -1 means unlimited. */
export type LimitName = {
  [K in keyof PlanLimits]: PlanLimits[K] extends number ? K : never;
}[keyof PlanLimits];

export const LIMIT_NAMES = [
  'series',
  'booksPerSeries',
  'charactersPerSeries',
  'locationsPerSeries',
  'aiSuggestionsPerDay',
  'cloudStorageGb',
  'pictureMb',
] as const satisfies readonly LimitName[];
export const limitNameSchema = z.enum(LIMIT_NAMES);

/** Boolean features (000 §6, 001 §6). */
export const FEATURE_NAMES = [
  'aiSuggestions',
  'aiCharacterImages',
  'relationshipMapping',
  'timeline',
  'advancedWorldBuilding',
  'writingChallenges',
  'multimedia',
  /** The spec's `communityCollaboration`: Loremaster and above (001 §2, §6). */
  'collaboration',
  'customVoices',
  'characterTracking',
  'consistencyAlerts',
  'templates',
  'analytics',
  'thirtyDayStreak',
  'pacePredictions',
  'expandedAchievements',
  'sharingMilestones',
  'continuityChecks',
  'textToSpeech',
  'prioritySupport',
  'priorityFeatures',
  'customFeatureDevelopment',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];
export const featureNameSchema = z.enum(FEATURE_NAMES);
export type PlanFlags = Readonly<Record<FeatureName, boolean>>;

export interface PlanTier {
  readonly name: PlanName;
  readonly displayName: string;
  readonly description: string;
  /** Monthly price in cents (000 §3, §9). */
  readonly priceCents: number;
  readonly mostPopular: boolean;
  /** Marketing list for the plan card, written from `limits` and `flags` so it cannot drift. */
  readonly features: readonly string[];
  readonly limits: PlanLimits;
  readonly flags: PlanFlags;
}

/** Labels of the boolean features, used by the plan cards, the comparison table and gates. */
export const FEATURE_LABELS: Readonly<Record<FeatureName, string>> = {
  aiSuggestions: 'AI writing suggestions',
  aiCharacterImages: 'AI character images',
  relationshipMapping: 'Character relationship mapping',
  timeline: 'Story timeline',
  advancedWorldBuilding: 'Advanced world building',
  writingChallenges: 'Writing challenges',
  multimedia: 'Multimedia (images, maps, audio)',
  collaboration: 'Community collaboration',
  customVoices: 'Custom voices',
  characterTracking: 'Character tracking',
  consistencyAlerts: 'Consistency alerts',
  templates: 'Templates',
  analytics: 'Writing analytics',
  thirtyDayStreak: '30-day streak view',
  pacePredictions: 'Pace predictions',
  expandedAchievements: 'Expanded achievements',
  sharingMilestones: 'Sharing milestones',
  continuityChecks: 'Continuity checks',
  textToSpeech: 'Text to speech',
  prioritySupport: 'Priority support',
  priorityFeatures: 'Priority access to new features',
  customFeatureDevelopment: 'Custom feature development',
};

export const LIMIT_LABELS: Readonly<Record<keyof PlanLimits, string>> = {
  series: 'Series',
  booksPerSeries: 'Books per series',
  charactersPerSeries: 'Characters per series',
  locationsPerSeries: 'Locations per series',
  aiSuggestionsPerDay: 'AI suggestions per day',
  cloudStorageGb: 'Cloud storage',
  pictureMb: 'Largest picture',
  export: 'Export',
  backup: 'Backup',
  platforms: 'Platforms',
};

/** Export wording from the spec's comparison table (000 §9). */
export const EXPORT_LABELS: Readonly<Record<ExportLevel, string>> = {
  basic: 'PDF and TXT',
  advanced: 'PDF, DOCX and TXT',
  premium: 'All Formats',
};
export const BACKUP_LABELS: Readonly<Record<BackupFrequency, string>> = {
  weekly: 'Weekly',
  daily: 'Daily',
  realtime: 'Real-time',
};
export const PLATFORM_LABELS: Readonly<Record<PlatformAccess, string>> = {
  web: 'Web only',
  'web-mobile': 'Web and mobile',
  all: 'All platforms',
};

// ---------------------------------------------------------------------------------------------
// The table

const NONE: PlanFlags = Object.fromEntries(FEATURE_NAMES.map((f) => [f, false])) as Record<FeatureName, boolean>;

/** "Wordsmith adds advanced world building, relationship mapping, writing challenges, timeline,
 * multimedia, collaboration, custom voices, and extras…" (000 §6). Collaboration is held back to
 * Loremaster per 001 §6. */
const WORDSMITH_FLAGS: PlanFlags = {
  ...NONE,
  aiSuggestions: true,
  aiCharacterImages: true,
  relationshipMapping: true,
  timeline: true,
  advancedWorldBuilding: true,
  writingChallenges: true,
  multimedia: true,
  customVoices: true,
  characterTracking: true,
  consistencyAlerts: true,
  templates: true,
  analytics: true,
  thirtyDayStreak: true,
  pacePredictions: true,
  expandedAchievements: true,
  sharingMilestones: true,
  continuityChecks: true,
  textToSpeech: true,
  prioritySupport: true,
};

type TierRow = Omit<PlanTier, 'features'>;

const TABLE: Readonly<Record<PlanName, TierRow>> = {
  apprentice: {
    name: 'apprentice',
    displayName: PLAN_DISPLAY_NAMES.apprentice,
    description: 'Plan your first series with the essential tools, free.',
    priceCents: 0,
    mostPopular: false,
    limits: {
      series: 1,
      booksPerSeries: 3,
      charactersPerSeries: 10,
      locationsPerSeries: 10,
      aiSuggestionsPerDay: 3,
      cloudStorageGb: 5,
      pictureMb: 5,
      export: 'basic',
      backup: 'weekly',
      platforms: 'web',
    },
    // "The AI suggestions feature requires tier apprentice"; none of the advanced features.
    flags: { ...NONE, aiSuggestions: true },
  },
  wordsmith: {
    name: 'wordsmith',
    displayName: PLAN_DISPLAY_NAMES.wordsmith,
    description: 'Unlimited series with timelines, relationship maps and advanced world building.',
    priceCents: 999,
    mostPopular: true,
    limits: {
      series: UNLIMITED,
      booksPerSeries: UNLIMITED,
      charactersPerSeries: UNLIMITED,
      locationsPerSeries: UNLIMITED,
      aiSuggestionsPerDay: 100,
      cloudStorageGb: 25,
      pictureMb: 10,
      export: 'advanced',
      backup: 'daily',
      platforms: 'web-mobile',
    },
    flags: WORDSMITH_FLAGS,
  },
  loremaster: {
    name: 'loremaster',
    displayName: PLAN_DISPLAY_NAMES.loremaster,
    description: 'Everything for prolific series authors, with community collaboration on every platform.',
    priceCents: 1999,
    mostPopular: false,
    limits: {
      series: UNLIMITED,
      booksPerSeries: UNLIMITED,
      charactersPerSeries: UNLIMITED,
      locationsPerSeries: UNLIMITED,
      aiSuggestionsPerDay: 200,
      cloudStorageGb: 50,
      pictureMb: 20,
      export: 'advanced',
      backup: 'daily',
      platforms: 'all',
    },
    // "Loremaster is as wordsmith with the differences in the table": the spec's table gives it
    // no priority support (000 §6). Gates send a Loremaster author to Legendary for it.
    flags: { ...WORDSMITH_FLAGS, collaboration: true, prioritySupport: false },
  },
  legendary: {
    name: 'legendary',
    displayName: PLAN_DISPLAY_NAMES.legendary,
    description: 'Unlimited AI, real-time backup, priority support and custom feature development.',
    priceCents: 4999,
    mostPopular: false,
    limits: {
      series: UNLIMITED,
      booksPerSeries: UNLIMITED,
      charactersPerSeries: UNLIMITED,
      locationsPerSeries: UNLIMITED,
      aiSuggestionsPerDay: UNLIMITED,
      cloudStorageGb: 100,
      pictureMb: 25,
      export: 'premium',
      backup: 'realtime',
      platforms: 'all',
    },
    flags: {
      ...WORDSMITH_FLAGS,
      collaboration: true,
      prioritySupport: true,
      priorityFeatures: true,
      customFeatureDevelopment: true,
    },
  },
};

/** Text of a numeric limit for display: -1 → "Unlimited". */
export function formatLimit(value: number): string {
  return value === UNLIMITED ? 'Unlimited' : String(value);
}

function countLine(value: number, noun: string): string {
  if (value === UNLIMITED) return `Unlimited ${noun}`;
  return noun === 'series' ? `${value} series` : `Up to ${value} ${noun}`;
}

/** The plan card's feature list, written from the plan's limits and flags. */
function featureList(row: TierRow): string[] {
  const l = row.limits;
  const lines = [
    countLine(l.series, 'series'),
    countLine(l.booksPerSeries, 'books per series'),
    countLine(l.charactersPerSeries, 'characters per series'),
    countLine(l.locationsPerSeries, 'locations per series'),
    l.aiSuggestionsPerDay === UNLIMITED
      ? 'Unlimited AI suggestions'
      : `${l.aiSuggestionsPerDay} AI suggestions per day`,
    `${l.cloudStorageGb} GB cloud storage`,
    ...(row.flags.multimedia ? [`Pictures up to ${l.pictureMb} MB each`] : []),
    `Export: ${EXPORT_LABELS[l.export]}`,
    `${BACKUP_LABELS[l.backup]} backups`,
    PLATFORM_LABELS[l.platforms],
  ];
  for (const f of FEATURE_NAMES) {
    // AI suggestions already have their own line with the daily allowance.
    if (f !== 'aiSuggestions' && row.flags[f]) lines.push(FEATURE_LABELS[f]);
  }
  return lines;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const PLANS: Readonly<Record<PlanName, PlanTier>> = deepFreeze(
  Object.fromEntries(
    PLAN_NAMES.map((name) => {
      const row = TABLE[name];
      const tier: PlanTier = {
        name: row.name,
        displayName: row.displayName,
        description: row.description,
        priceCents: row.priceCents,
        mostPopular: row.mostPopular,
        features: featureList(row),
        limits: { ...row.limits },
        flags: { ...row.flags },
      };
      return [name, tier];
    }),
  ) as Record<PlanName, PlanTier>,
);

/** The plans in tier order, for lists and cards. */
export const PLAN_LIST: readonly PlanTier[] = PLAN_NAMES.map((p) => PLANS[p]);

// ---------------------------------------------------------------------------------------------
// Queries

/** 0 for apprentice up to 3 for legendary. */
export function tierRank(plan: PlanName): number {
  return PLAN_NAMES.indexOf(plan);
}

/** True when `userPlan` is `requiredPlan` or higher (000 §4: access checks compare rank). */
export function hasTier(userPlan: PlanName, requiredPlan: PlanName): boolean {
  return tierRank(userPlan) >= tierRank(requiredPlan);
}

export function hasFeature(plan: PlanName, feature: FeatureName): boolean {
  return PLANS[plan].flags[feature];
}

/**
 * The lowest tier that has the feature; with `from`, the lowest tier at or above `from` that has it
 * (priority support skips Loremaster). Every feature exists on Legendary.
 */
export function requiredTierFor(feature: FeatureName, from: PlanName = 'apprentice'): PlanName {
  const start = tierRank(from);
  return PLAN_NAMES.find((p, i) => i >= start && hasFeature(p, feature)) ?? 'legendary';
}

/** The plan's numeric limit; -1 means unlimited. */
export function limitFor(plan: PlanName, limit: LimitName): number {
  return PLANS[plan].limits[limit];
}

export function isUnlimited(plan: PlanName, limit: LimitName): boolean {
  return limitFor(plan, limit) === UNLIMITED;
}

/** True when one more item may be added: the limit is unlimited, or `currentCount` is below it. */
export function isWithinLimit(plan: PlanName, limit: LimitName, currentCount: number): boolean {
  const max = limitFor(plan, limit);
  return max === UNLIMITED || currentCount < max;
}

/**
 * The lowest tier (at or above `from`, when given) on which one more item may be added when the
 * author already has `currentCount`; null when no tier allows it.
 */
export function nextTierAllowing(limit: LimitName, currentCount: number, from: PlanName = 'apprentice'): PlanName | null {
  const start = tierRank(from);
  return PLAN_NAMES.find((p, i) => i >= start && isWithinLimit(p, limit, currentCount)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Feature gate (000 §4)

/** "The Wordsmith" reads as "the Wordsmith tier" inside a sentence that already says "the". */
export function tierNameInSentence(tier: PlanName): string {
  return PLANS[tier].displayName.replace(/^The\s+/, '');
}

export function upgradeMessage(tier: PlanName): string {
  return `This feature requires the ${tierNameInSentence(tier)} tier or higher. Please upgrade your subscription to access it.`;
}

/** Shown when even the highest tier's limit is reached, so no upgrade would help. */
export const TOP_LIMIT_MESSAGE = 'You have reached the limit of the highest plan.';

export interface GateInput {
  plan: PlanName;
  feature?: FeatureName | undefined;
  requiredTier?: PlanName | undefined;
  limit?: LimitName | undefined;
  /** The number of items the author already has; checked against `limit`. */
  count?: number | undefined;
}

export interface GateState {
  locked: boolean;
  /** The upgrade message when locked, '' when open. */
  message: string;
  /**
   * The tier that opens the gate: the highest of the tiers each check asks for. When open, the tier
   * the gate asks for (null when it asks for none); when locked by a limit no tier lifts, null.
   */
  requiredTier: PlanName | null;
}

/**
 * Spec 000 §4: locked if the feature is not available to the tier, or the user's tier is below the
 * required tier, or the current count has reached the limit. The message comes from the tier that
 * would open it: "This feature requires the {tier} tier or higher. Please upgrade your subscription
 * to access it."
 */
export function gateState(input: GateInput): GateState {
  const { plan, feature, requiredTier, limit, count } = input;
  let locked = false;
  let unreachable = false;
  const asks: PlanName[] = [];

  if (feature !== undefined) {
    if (hasFeature(plan, feature)) {
      asks.push(requiredTierFor(feature));
    } else {
      locked = true;
      asks.push(requiredTierFor(feature, plan));
    }
  }
  if (requiredTier !== undefined) {
    asks.push(requiredTier);
    if (!hasTier(plan, requiredTier)) locked = true;
  }
  if (limit !== undefined && count !== undefined && !isWithinLimit(plan, limit, count)) {
    locked = true;
    const next = nextTierAllowing(limit, count, plan);
    if (next === null) unreachable = true;
    else asks.push(next);
  }

  const tier = asks.reduce<PlanName | null>((hi, p) => (hi === null || tierRank(p) > tierRank(hi) ? p : hi), null);
  if (!locked) return { locked: false, message: '', requiredTier: tier };
  if (unreachable || tier === null) return { locked: true, message: TOP_LIMIT_MESSAGE, requiredTier: null };
  return { locked: true, message: upgradeMessage(tier), requiredTier: tier };
}

// ---------------------------------------------------------------------------------------------
// Compare Features tab (derived from the same table)

export type ComparisonCell = string | boolean;
export interface ComparisonRow {
  readonly key: keyof PlanLimits | FeatureName;
  readonly label: string;
  /** Text for limits, true/false (shown as a tick or a dash) for features. */
  readonly values: Readonly<Record<PlanName, ComparisonCell>>;
}

function row(key: ComparisonRow['key'], label: string, cell: (plan: PlanTier) => ComparisonCell): ComparisonRow {
  const values = Object.fromEntries(PLAN_NAMES.map((p) => [p, cell(PLANS[p])])) as Record<PlanName, ComparisonCell>;
  return { key, label, values };
}

export const COMPARISON_ROWS: readonly ComparisonRow[] = deepFreeze([
  ...LIMIT_NAMES.map((k) =>
    row(k, LIMIT_LABELS[k], (p) => {
      const v = p.limits[k];
      return k === 'cloudStorageGb' ? `${v} GB` : k === 'pictureMb' ? `${v} MB` : formatLimit(v);
    }),
  ),
  row('export', LIMIT_LABELS.export, (p) => EXPORT_LABELS[p.limits.export]),
  row('backup', LIMIT_LABELS.backup, (p) => BACKUP_LABELS[p.limits.backup]),
  row('platforms', LIMIT_LABELS.platforms, (p) => PLATFORM_LABELS[p.limits.platforms]),
  ...FEATURE_NAMES.map((f) => row(f, FEATURE_LABELS[f], (p) => p.flags[f])),
]);

// ---------------------------------------------------------------------------------------------
// Prices (000 §2 Subscriptions, §9)

/** Yearly billing takes 20% off (tab label "Yearly (Save 20%)"). */
export const YEARLY_DISCOUNT_PERCENT = 20;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents as US dollars with two decimals: 999 → "$9.99". */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** A plan price: 0 → "Free", otherwise e.g. "$9.99" (the card adds "per month"). */
export function formatPlanPrice(cents: number): string {
  return cents === 0 ? 'Free' : formatCents(cents);
}

export interface YearlyPrice {
  /** Monthly price with the yearly discount (price × 0.8), in cents. */
  monthlyCents: number;
  /** What is billed once a year (price × 0.8 × 12), in cents. */
  annualCents: number;
  monthly: string;
  annual: string;
}

/** Yearly tab figures for a monthly price in cents; 999 → $7.99 a month, $95.90 billed annually. */
export function yearlyPrice(monthlyCents: number): YearlyPrice {
  const keep = 100 - YEARLY_DISCOUNT_PERCENT;
  const discounted = Math.round((monthlyCents * keep) / 100);
  const annual = Math.round((monthlyCents * keep * 12) / 100);
  return { monthlyCents: discounted, annualCents: annual, monthly: formatCents(discounted), annual: formatCents(annual) };
}

/** Plans on the Yearly tab: only those with a price above 0. */
export function yearlyPlans(): PlanTier[] {
  return PLAN_LIST.filter((p) => p.priceCents > 0);
}

/** The plan Subscribe Now picks by default: the one marked most popular, or wordsmith. */
export function defaultSubscribePlan(): PlanName {
  return PLAN_LIST.find((p) => p.mostPopular)?.name ?? 'wordsmith';
}

