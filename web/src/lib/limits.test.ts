import { afterEach, describe, expect, it, vi } from 'vitest';
import { upgradeMessage } from '@chronicler/schema';
import { VALIDATION_TOASTS } from '@/lib/copy/toasts';
import { limitLockedToast, mayCreateInSeries, planLimitState } from './limits';
import { toast } from './toast';

afterEach(() => vi.restoreAllMocks());

describe('characters per series on the plan (000 §6)', () => {
  it('says nothing well below the Apprentice limit of 10', () => {
    const s = planLimitState('apprentice', 'charactersPerSeries', 5);
    expect(s).toMatchObject({ limit: 10, warn: false, locked: false });
  });

  it('warns from 8 of 10', () => {
    expect(planLimitState('apprentice', 'charactersPerSeries', 7).warn).toBe(false);
    const s = planLimitState('apprentice', 'charactersPerSeries', 8);
    expect(s).toMatchObject({ warn: true, locked: false, usage: '8 of 10 characters on the Apprentice plan' });
  });

  it('locks at 10 with a message worded as a limit, naming the plan that lifts it', () => {
    const s = planLimitState('apprentice', 'charactersPerSeries', 10);
    expect(s.locked).toBe(true);
    expect(s.requiredTier).toBe('wordsmith');
    expect(s.message).toBe('You have used all 10 characters your plan allows in this series. Upgrade to The Wordsmith to add more.');
    expect(s.message).not.toMatch(/This feature requires/);
  });

  it('has no limit from Wordsmith up', () => {
    for (const plan of ['wordsmith', 'loremaster', 'legendary'] as const) {
      expect(planLimitState(plan, 'charactersPerSeries', 500)).toMatchObject({ limit: null, warn: false, locked: false });
    }
  });
});

describe('locations per series on the Apprentice plan', () => {
  it('counts quietly below the warning, warns from 8 of 10, locks at 10 with the upgrade message', () => {
    expect(planLimitState('apprentice', 'locationsPerSeries', 3)).toMatchObject({
      usage: '3 of 10 locations on the Apprentice plan',
      warn: false,
      locked: false,
    });
    expect(planLimitState('apprentice', 'locationsPerSeries', 8)).toMatchObject({
      usage: '8 of 10 locations on the Apprentice plan',
      warn: true,
      locked: false,
    });
    expect(planLimitState('apprentice', 'locationsPerSeries', 10)).toMatchObject({
      usage: '10 of 10 locations on the Apprentice plan',
      locked: true,
      message: 'You have used all 10 locations your plan allows in this series. Upgrade to The Wordsmith to add more.',
      requiredTier: 'wordsmith',
    });
  });

  it('has no limit from The Wordsmith up', () => {
    expect(planLimitState('wordsmith', 'locationsPerSeries', 500)).toMatchObject({ limit: null, locked: false, warn: false, usage: '' });
  });
});

describe('series and books on the plan', () => {
  it('names one series and many books', () => {
    expect(planLimitState('apprentice', 'series', 1)).toMatchObject({ usage: '1 of 1 series on the Apprentice plan', locked: true });
    expect(planLimitState('apprentice', 'booksPerSeries', 2)).toMatchObject({ usage: '2 of 3 books on the Apprentice plan', locked: false });
  });
});

describe('New pressed at the limit', () => {
  it("toasts the tier's Feature Locked toast", () => {
    const toast = limitLockedToast(planLimitState('apprentice', 'locationsPerSeries', 10));
    expect(toast.title).toBe('Feature Locked');
    expect(toast.message).toBe(upgradeMessage('wordsmith'));
  });
});

describe('may a New button open its dialog', () => {
  const open = planLimitState('apprentice', 'locationsPerSeries', 3);
  const full = planLimitState('apprentice', 'locationsPerSeries', 10);

  it('yes, in a series below the limit', () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    expect(mayCreateInSeries('s1', false, open)).toBe(true);
    expect(show).not.toHaveBeenCalled();
  });

  it("no, without a series: 'No series selected'", () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    expect(mayCreateInSeries(null, false, open)).toBe(false);
    expect(show).toHaveBeenCalledWith(VALIDATION_TOASTS.noSeriesSelected);
  });

  it('no, at the limit: the lock', () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    expect(mayCreateInSeries('s1', true, full)).toBe(false);
    expect(show).toHaveBeenCalledWith(limitLockedToast(full));
  });
});
