import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPARISON_ROWS,
  FEATURE_NAMES,
  LIMIT_NAMES,
  PLAN_LIST,
  PLAN_NAMES,
  PLANS,
  TOP_LIMIT_MESSAGE,
  defaultSubscribePlan,
  formatCents,
  formatPlanPrice,
  gateState,
  hasFeature,
  hasTier,
  isWithinLimit,
  limitFor,
  nextTierAllowing,
  planLabel,
  planNameSchema,
  requiredTierFor,
  tierRank,
  toPlanName,
  upgradeMessage,
  yearlyPlans,
  yearlyPrice,
  type PlanName,
} from './plans.ts';

const planArb = fc.constantFrom(...PLAN_NAMES);
const limitArb = fc.constantFrom(...LIMIT_NAMES);

describe('plan names and order', () => {
  it('orders the tiers apprentice < wordsmith < loremaster < legendary', () => {
    expect(PLAN_NAMES.map(tierRank)).toEqual([0, 1, 2, 3]);
    expect(hasTier('wordsmith', 'apprentice')).toBe(true);
    expect(hasTier('wordsmith', 'wordsmith')).toBe(true);
    expect(hasTier('wordsmith', 'loremaster')).toBe(false);
    expect(hasTier('legendary', 'loremaster')).toBe(true);
    expect(hasTier('apprentice', 'legendary')).toBe(false);
  });

  it('shows the display names of the spec', () => {
    expect(PLAN_LIST.map((p) => p.displayName)).toEqual([
      'Apprentice',
      'The Wordsmith',
      'Loremaster',
      'Legendary Chronicler',
    ]);
    expect(planLabel('wordsmith')).toBe('The Wordsmith Plan');
  });

  it('validates plan names and falls back to apprentice for unknown stored values', () => {
    expect(planNameSchema.parse('loremaster')).toBe('loremaster');
    expect(planNameSchema.safeParse('Loremaster').success).toBe(false);
    expect(toPlanName('Legendary')).toBe('legendary');
    expect(toPlanName('gold')).toBe('apprentice');
    expect(toPlanName(undefined)).toBe('apprentice');
  });

  it('hasTier agrees with the rank order for every pair', () => {
    fc.assert(
      fc.property(planArb, planArb, (a, b) => hasTier(a, b) === PLAN_NAMES.indexOf(a) >= PLAN_NAMES.indexOf(b)),
    );
  });
});

describe('prices', () => {
  it('prices the tiers 0, 9.99, 19.99, 49.99 with wordsmith most popular', () => {
    expect(PLAN_LIST.map((p) => p.priceCents)).toEqual([0, 999, 1999, 4999]);
    expect(PLAN_LIST.filter((p) => p.mostPopular).map((p) => p.name)).toEqual(['wordsmith']);
    expect(defaultSubscribePlan()).toBe('wordsmith');
  });

  it('shows Free for 0 and dollars with two decimals otherwise', () => {
    expect(formatPlanPrice(0)).toBe('Free');
    expect(formatPlanPrice(999)).toBe('$9.99');
    expect(formatPlanPrice(4999)).toBe('$49.99');
    expect(formatPlanPrice(1000)).toBe('$10.00');
    expect(formatCents(0)).toBe('$0.00');
  });

  it('takes 20% off yearly: monthly × 0.8 and annual total × 0.8 × 12', () => {
    expect(yearlyPrice(999)).toEqual({ monthlyCents: 799, annualCents: 9590, monthly: '$7.99', annual: '$95.90' });
    expect(yearlyPrice(1999)).toMatchObject({ monthly: '$15.99', annual: '$191.90' });
    expect(yearlyPrice(4999)).toMatchObject({ monthly: '$39.99', annual: '$479.90' });
    expect(yearlyPlans().map((p) => p.name)).toEqual(['wordsmith', 'loremaster', 'legendary']);
  });
});

describe('limits (000 §6)', () => {
  it('lets an apprentice add a 10th character but not an 11th', () => {
    expect(limitFor('apprentice', 'charactersPerSeries')).toBe(10);
    expect(isWithinLimit('apprentice', 'charactersPerSeries', 9)).toBe(true);
    expect(isWithinLimit('apprentice', 'charactersPerSeries', 10)).toBe(false);
    expect(isWithinLimit('apprentice', 'locationsPerSeries', 9)).toBe(true);
    expect(isWithinLimit('apprentice', 'locationsPerSeries', 10)).toBe(false);
  });

  it('gives an apprentice 1 series, 3 books per series and 3 AI suggestions a day', () => {
    expect(isWithinLimit('apprentice', 'series', 0)).toBe(true);
    expect(isWithinLimit('apprentice', 'series', 1)).toBe(false);
    expect(isWithinLimit('apprentice', 'booksPerSeries', 2)).toBe(true);
    expect(isWithinLimit('apprentice', 'booksPerSeries', 3)).toBe(false);
    expect(limitFor('apprentice', 'aiSuggestionsPerDay')).toBe(3);
  });

  it('has unlimited counts above apprentice', () => {
    for (const plan of ['wordsmith', 'loremaster', 'legendary'] as const) {
      for (const limit of ['series', 'booksPerSeries', 'charactersPerSeries', 'locationsPerSeries'] as const) {
        expect(limitFor(plan, limit)).toBe(-1);
        expect(isWithinLimit(plan, limit, 1_000_000)).toBe(true);
      }
    }
  });

  it('matches the spec for AI, storage, export, backup and platforms', () => {
    expect(PLAN_LIST.map((p) => p.limits.aiSuggestionsPerDay)).toEqual([3, 100, 200, -1]);
    expect(PLAN_LIST.map((p) => p.limits.cloudStorageGb)).toEqual([5, 25, 50, 100]);
    expect(PLAN_LIST.map((p) => p.limits.export)).toEqual(['basic', 'advanced', 'advanced', 'premium']);
    expect(PLAN_LIST.map((p) => p.limits.backup)).toEqual(['weekly', 'daily', 'daily', 'realtime']);
    expect(PLAN_LIST.map((p) => p.limits.platforms)).toEqual(['web', 'web-mobile', 'all', 'all']);
  });

  it('is monotone: once over a limit, more items stay over it', () => {
    fc.assert(
      fc.property(planArb, limitArb, fc.nat(10_000), fc.nat(10_000), (plan, limit, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        // within at hi implies within at lo
        return !isWithinLimit(plan, limit, hi) || isWithinLimit(plan, limit, lo);
      }),
    );
  });

  it('is monotone in the tier: a higher tier allows whatever a lower tier allows', () => {
    fc.assert(
      fc.property(planArb, planArb, limitArb, fc.nat(10_000), (a, b, limit, count) => {
        const [lo, hi] = tierRank(a) <= tierRank(b) ? [a, b] : [b, a];
        return !isWithinLimit(lo, limit, count) || isWithinLimit(hi, limit, count);
      }),
    );
  });

  it('names the lowest tier that allows one more item', () => {
    expect(nextTierAllowing('charactersPerSeries', 9)).toBe('apprentice');
    expect(nextTierAllowing('charactersPerSeries', 10)).toBe('wordsmith');
    expect(nextTierAllowing('aiSuggestionsPerDay', 150)).toBe('loremaster');
    expect(nextTierAllowing('aiSuggestionsPerDay', 150, 'legendary')).toBe('legendary');
    expect(nextTierAllowing('cloudStorageGb', 100)).toBeNull();
  });

  it('nextTierAllowing always names a tier that allows the count, and none below it does', () => {
    fc.assert(
      fc.property(limitArb, fc.nat(500), (limit, count) => {
        const tier = nextTierAllowing(limit, count);
        if (tier === null) return PLAN_NAMES.every((p) => !isWithinLimit(p, limit, count));
        return (
          isWithinLimit(tier, limit, count) &&
          PLAN_NAMES.filter((p) => tierRank(p) < tierRank(tier)).every((p) => !isWithinLimit(p, limit, count))
        );
      }),
    );
  });
});

describe('features', () => {
  it('gives apprentice AI suggestions and none of the advanced features', () => {
    const on = FEATURE_NAMES.filter((f) => hasFeature('apprentice', f));
    expect(on).toEqual(['aiSuggestions']);
    expect(requiredTierFor('aiSuggestions')).toBe('apprentice');
  });

  it('unlocks relationship mapping, timeline, world building and AI images at The Wordsmith', () => {
    for (const f of ['relationshipMapping', 'timeline', 'advancedWorldBuilding', 'aiCharacterImages', 'writingChallenges', 'multimedia', 'customVoices'] as const) {
      expect(requiredTierFor(f)).toBe('wordsmith');
      expect(hasFeature('apprentice', f)).toBe(false);
      expect(hasFeature('legendary', f)).toBe(true);
    }
  });

  it('keeps community collaboration for Loremaster and above (001 §6)', () => {
    expect(PLAN_NAMES.map((p) => hasFeature(p, 'collaboration'))).toEqual([false, false, true, true]);
    expect(requiredTierFor('collaboration')).toBe('loremaster');
  });

  it('follows the spec for priority support: wordsmith yes, loremaster no, legendary yes', () => {
    expect(PLAN_NAMES.map((p) => hasFeature(p, 'prioritySupport'))).toEqual([false, true, false, true]);
    expect(requiredTierFor('prioritySupport')).toBe('wordsmith');
    expect(requiredTierFor('prioritySupport', 'loremaster')).toBe('legendary');
  });

  it('reserves priority features and custom feature development for Legendary Chronicler', () => {
    expect(requiredTierFor('customFeatureDevelopment')).toBe('legendary');
    expect(requiredTierFor('priorityFeatures')).toBe('legendary');
  });

  it('requiredTierFor names a tier that has the feature', () => {
    fc.assert(fc.property(fc.constantFrom(...FEATURE_NAMES), planArb, (f, from) => hasFeature(requiredTierFor(f, from), f)));
  });
});

describe('feature gate (000 §4)', () => {
  it('words the upgrade message with the display name', () => {
    expect(upgradeMessage('wordsmith')).toBe(
      'This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.',
    );
    expect(upgradeMessage('legendary')).toBe(
      'This feature requires the Legendary Chronicler tier or higher. Please upgrade your subscription to access it.',
    );
  });

  it('locks a feature the tier lacks and names the tier that has it', () => {
    expect(gateState({ plan: 'apprentice', feature: 'timeline' })).toEqual({
      locked: true,
      message: upgradeMessage('wordsmith'),
      requiredTier: 'wordsmith',
    });
    expect(gateState({ plan: 'wordsmith', feature: 'collaboration' })).toMatchObject({ locked: true, requiredTier: 'loremaster' });
    expect(gateState({ plan: 'loremaster', feature: 'prioritySupport' })).toMatchObject({ locked: true, requiredTier: 'legendary' });
    expect(gateState({ plan: 'wordsmith', feature: 'timeline' })).toEqual({ locked: false, message: '', requiredTier: 'wordsmith' });
  });

  it('locks when the tier is below the required tier', () => {
    expect(gateState({ plan: 'wordsmith', requiredTier: 'loremaster' })).toEqual({
      locked: true,
      message: upgradeMessage('loremaster'),
      requiredTier: 'loremaster',
    });
    expect(gateState({ plan: 'legendary', requiredTier: 'loremaster' }).locked).toBe(false);
  });

  it('locks when the count has reached the limit', () => {
    expect(gateState({ plan: 'apprentice', limit: 'charactersPerSeries', count: 9 }).locked).toBe(false);
    expect(gateState({ plan: 'apprentice', limit: 'charactersPerSeries', count: 10 })).toEqual({
      locked: true,
      message: upgradeMessage('wordsmith'),
      requiredTier: 'wordsmith',
    });
    expect(gateState({ plan: 'wordsmith', limit: 'charactersPerSeries', count: 5000 }).locked).toBe(false);
  });

  it('says no upgrade helps when the highest tier is full', () => {
    expect(gateState({ plan: 'legendary', limit: 'cloudStorageGb', count: 100 })).toEqual({
      locked: true,
      message: TOP_LIMIT_MESSAGE,
      requiredTier: null,
    });
  });

  it('asks for the highest tier any check needs', () => {
    const state = gateState({ plan: 'apprentice', feature: 'timeline', requiredTier: 'loremaster' });
    expect(state).toMatchObject({ locked: true, requiredTier: 'loremaster', message: upgradeMessage('loremaster') });
  });

  it('is open with no checks', () => {
    expect(gateState({ plan: 'apprentice' })).toEqual({ locked: false, message: '', requiredTier: null });
  });

  it('locked iff one of the three conditions holds', () => {
    fc.assert(
      fc.property(
        planArb,
        fc.option(fc.constantFrom(...FEATURE_NAMES), { nil: undefined }),
        fc.option(planArb, { nil: undefined }),
        fc.option(fc.tuple(limitArb, fc.nat(300)), { nil: undefined }),
        (plan, feature, requiredTier, lc) => {
          const state = gateState({ plan, feature, requiredTier, limit: lc?.[0], count: lc?.[1] });
          const expected =
            (feature !== undefined && !hasFeature(plan, feature)) ||
            (requiredTier !== undefined && !hasTier(plan, requiredTier)) ||
            (lc !== undefined && !isWithinLimit(plan, lc[0], lc[1]));
          if (state.locked !== expected) return false;
          if (!state.locked) return state.message === '';
          // The named tier really opens the gate.
          const t = state.requiredTier;
          if (t === null) return state.message === TOP_LIMIT_MESSAGE;
          return (
            state.message === upgradeMessage(t) &&
            (feature === undefined || hasFeature(t, feature) || tierRank(t) > tierRank(requiredTierFor(feature, plan))) &&
            (requiredTier === undefined || hasTier(t, requiredTier)) &&
            (lc === undefined || isWithinLimit(t, lc[0], lc[1]))
          );
        },
      ),
    );
  });
});

describe('plan cards and comparison table come from the same table', () => {
  it('lists the limits on each card', () => {
    expect(PLANS.apprentice.features).toEqual(
      expect.arrayContaining([
        '1 series',
        'Up to 3 books per series',
        'Up to 10 characters per series',
        'Up to 10 locations per series',
        '3 AI suggestions per day',
        '5 GB cloud storage',
        'Export: PDF and TXT',
        'Weekly backups',
        'Web only',
      ]),
    );
    expect(PLANS.apprentice.features).not.toContain('Story timeline');
    expect(PLANS.wordsmith.features).toEqual(expect.arrayContaining(['Unlimited series', 'Story timeline', 'Priority support']));
    expect(PLANS.wordsmith.features).not.toContain('Community collaboration');
    expect(PLANS.loremaster.features).toContain('Community collaboration');
    expect(PLANS.legendary.features).toEqual(
      expect.arrayContaining(['Unlimited AI suggestions', 'Export: All Formats', 'Real-time backups', 'Custom feature development']),
    );
  });

  it('has one comparison row per limit and per feature, in plan order', () => {
    const byKey = Object.fromEntries(COMPARISON_ROWS.map((r) => [r.key, r]));
    expect(COMPARISON_ROWS).toHaveLength(LIMIT_NAMES.length + 3 + FEATURE_NAMES.length);
    expect(byKey['series']?.values).toEqual({ apprentice: '1', wordsmith: 'Unlimited', loremaster: 'Unlimited', legendary: 'Unlimited' });
    expect(byKey['charactersPerSeries']?.values.apprentice).toBe('10');
    expect(byKey['aiSuggestionsPerDay']?.values).toEqual({ apprentice: '3', wordsmith: '100', loremaster: '200', legendary: 'Unlimited' });
    expect(byKey['cloudStorageGb']?.values.legendary).toBe('100 GB');
    expect(byKey['export']?.values).toEqual({
      apprentice: 'PDF and TXT',
      wordsmith: 'PDF, DOCX and TXT',
      loremaster: 'PDF, DOCX and TXT',
      legendary: 'All Formats',
    });
    expect(byKey['collaboration']?.label).toBe('Community collaboration');
    for (const row of COMPARISON_ROWS) expect(Object.keys(row.values)).toEqual([...PLAN_NAMES]);
  });

  it('shows on the comparison table exactly what is enforced', () => {
    for (const f of FEATURE_NAMES) {
      const row = COMPARISON_ROWS.find((r) => r.key === f);
      for (const p of PLAN_NAMES) expect(row?.values[p]).toBe(hasFeature(p, f));
    }
    for (const l of LIMIT_NAMES) {
      const row = COMPARISON_ROWS.find((r) => r.key === l);
      for (const p of PLAN_NAMES) {
        const v = limitFor(p, l);
        expect(String(row?.values[p])).toContain(v === -1 ? 'Unlimited' : String(v));
      }
    }
  });

  it('cannot be changed at run time', () => {
    const plan: PlanName = 'apprentice';
    expect(() => {
      (PLANS[plan].limits as { series: number }).series = 99;
    }).toThrow(TypeError);
    expect(limitFor('apprentice', 'series')).toBe(1);
  });
});
