import { describe, expect, it } from 'vitest';
import { upgradeMessage } from '@chronicler/schema';
import { locationLimitState } from './limits';
import { pickSeriesId } from './series-choice';

describe('locations per series on the Apprentice plan', () => {
  it('counts quietly below the warning, warns from 8 of 10, locks at 10 with the upgrade message', () => {
    expect(locationLimitState('apprentice', 3)).toMatchObject({ usage: '3 of 10 locations on the Apprentice plan', warn: false, locked: false });
    expect(locationLimitState('apprentice', 8)).toMatchObject({ usage: '8 of 10 locations on the Apprentice plan', warn: true, locked: false });
    expect(locationLimitState('apprentice', 10)).toMatchObject({
      usage: '10 of 10 locations on the Apprentice plan',
      locked: true,
      message: upgradeMessage('wordsmith'),
      requiredTier: 'wordsmith',
    });
  });

  it('has no limit from The Wordsmith up', () => {
    expect(locationLimitState('wordsmith', 500)).toMatchObject({ limit: null, locked: false, warn: false, usage: '' });
  });
});

describe('series choice', () => {
  it('prefers the chosen series, then the remembered one, then the first', () => {
    expect(pickSeriesId(['a', 'b', 'c'], 'c', 'b')).toBe('c');
    expect(pickSeriesId(['a', 'b', 'c'], 'gone', 'b')).toBe('b');
    expect(pickSeriesId(['a', 'b'], null, 'gone')).toBe('a');
    expect(pickSeriesId([], null, 'b')).toBeNull();
  });
});
