import { describe, expect, it } from 'vitest';
import { characterLimitState } from './limits';

describe('characters per series on the plan (000 §6)', () => {
  it('says nothing well below the Apprentice limit of 10', () => {
    const s = characterLimitState('apprentice', 5);
    expect(s).toMatchObject({ limit: 10, warn: false, locked: false });
  });

  it('warns from 8 of 10', () => {
    expect(characterLimitState('apprentice', 7).warn).toBe(false);
    const s = characterLimitState('apprentice', 8);
    expect(s).toMatchObject({ warn: true, locked: false, usage: '8 of 10 characters on the Apprentice plan' });
  });

  it('locks at 10 with the tier upgrade message', () => {
    const s = characterLimitState('apprentice', 10);
    expect(s.locked).toBe(true);
    expect(s.requiredTier).toBe('wordsmith');
    expect(s.message).toBe('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.');
  });

  it('has no limit from Wordsmith up', () => {
    for (const plan of ['wordsmith', 'loremaster', 'legendary'] as const) {
      expect(characterLimitState(plan, 500)).toMatchObject({ limit: null, warn: false, locked: false });
    }
  });
});
