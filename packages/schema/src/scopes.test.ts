import { describe, expect, it } from 'vitest';
import { ENTITY_KINDS, USER_SCOPED_KINDS, isValidTimeZone, updateUserSettingsBodySchema } from './entities.ts';
import { ENTITY_REFERENCES, SERIES_CHILD_KINDS } from './delete-cascade.ts';
import { SERIES_SCOPED_KINDS, isUserScopedKind, scopeOfRow, seriesIdOfRow } from './scopes.ts';

describe('row scopes', () => {
  it('puts every kind in exactly one scope', () => {
    for (const kind of ENTITY_KINDS) {
      expect(SERIES_SCOPED_KINDS.includes(kind as never) !== isUserScopedKind(kind)).toBe(true);
    }
    expect(USER_SCOPED_KINDS.every((k) => (ENTITY_KINDS as readonly string[]).includes(k))).toBe(true);
  });

  it('derives the series children from the cascade table: every series-scoped kind but the series', () => {
    expect([...SERIES_CHILD_KINDS].sort()).toEqual(SERIES_SCOPED_KINDS.filter((k) => k !== 'series').sort());
    expect(SERIES_CHILD_KINDS).not.toContain('users');
  });

  it('never looks user-scoped rows up by series in the cascade', () => {
    for (const ref of ENTITY_REFERENCES as readonly { from: (typeof ENTITY_KINDS)[number]; to: (typeof ENTITY_KINDS)[number]; lookup: string }[]) {
      if (isUserScopedKind(ref.from) || isUserScopedKind(ref.to)) expect(ref.lookup).toBe('index');
    }
  });

  it('names the series of a series row, of a child row, and no series for a user-scoped row', () => {
    expect(scopeOfRow('series', { id: 's1' })).toEqual({ seriesId: 's1' });
    expect(seriesIdOfRow('books', { id: 'b1', seriesId: 's1' } as never)).toBe('s1');
    expect(scopeOfRow('users', { id: 'u1', userId: 'u1' } as { id: string })).toEqual({ userId: 'u1' });
    expect(seriesIdOfRow('users', { id: 'u1', userId: 'u1' } as never)).toBeNull();
  });
});

describe('time zones', () => {
  it('accepts IANA zones Intl knows and refuses anything else with one message', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone(' Europe/Paris')).toBe(false);
    expect(updateUserSettingsBodySchema.parse({ timeZone: 'America/New_York' })).toEqual({ timeZone: 'America/New_York' });
    const bad = updateUserSettingsBodySchema.safeParse({ timeZone: 'Nowhere/Else' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('Unknown time zone');
    expect(updateUserSettingsBodySchema.safeParse({ timeZone: 'UTC', plan: 'legendary' }).success).toBe(false);
  });
});
