import { describe, expect, it } from 'vitest';
import type { Character } from '@chronicler/schema';
import { createBodyFromForm, emptyCharacterForm, formFromCharacter, initials, updateBodyFromForm } from './character-form';

const SERIES = '0190a6f0-0000-7000-8000-0000000000aa';

function character(over: Partial<Character> = {}): Character {
  return {
    id: '0190a6f0-0000-7000-8000-0000000000bb',
    rev: 1,
    createdAt: '',
    updatedAt: '',
    deletedAt: null,
    seriesId: SERIES,
    name: 'Ged',
    role: 'protagonist',
    age: '17',
    occupation: 'Wizard',
    status: 'alive',
    description: 'A goatherd with a gift',
    appearance: '',
    personality: '',
    goals: '',
    backstory: '',
    bookAppearances: [1, 2],
    isProtagonist: true,
    avatar: null,
    avatarUrl: null,
    aliases: ['Sparrowhawk'],
    alwaysInclude: false,
    ...over,
  };
}

describe('character form', () => {
  it('sends every field on create, with book appearances as a sorted array of numbers', () => {
    const v = { ...emptyCharacterForm(), name: '  Tenar ', bookAppearances: ['3', '1'], avatarUrl: '' };
    expect(createBodyFromForm(SERIES, v)).toEqual({
      seriesId: SERIES,
      name: 'Tenar',
      role: 'supporting',
      age: '',
      occupation: '',
      status: 'alive',
      description: '',
      appearance: '',
      personality: '',
      goals: '',
      backstory: '',
      bookAppearances: [1, 3],
      isProtagonist: false,
      avatarUrl: null,
      aliases: [],
      alwaysInclude: false,
    });
  });

  it('sends only changed fields on update', () => {
    const c = character();
    expect(updateBodyFromForm(c, formFromCharacter(c))).toEqual({});
    expect(updateBodyFromForm(c, { ...formFromCharacter(c), isProtagonist: false })).toEqual({ isProtagonist: false });
    expect(updateBodyFromForm(c, { ...formFromCharacter(c), bookAppearances: ['2', '1', '7'] })).toEqual({ bookAppearances: [1, 2, 7] });
    expect(updateBodyFromForm(c, { ...formFromCharacter(c), avatarUrl: '/assets/p.svg' })).toEqual({ avatarUrl: '/assets/p.svg' });
    expect(updateBodyFromForm(c, { ...formFromCharacter(c), aliases: ['Sparrowhawk', 'the Archmage'] })).toEqual({ aliases: ['Sparrowhawk', 'the Archmage'] });
    expect(updateBodyFromForm(c, { ...formFromCharacter(c), aliases: [] })).toEqual({ aliases: [] });
    expect(updateBodyFromForm(c, { ...formFromCharacter(c), alwaysInclude: true })).toEqual({ alwaysInclude: true });
  });

  it('makes initials for the avatar fallback', () => {
    expect(initials('Ged Sparrowhawk')).toBe('GS');
    expect(initials('Ogion')).toBe('OG');
    expect(initials('  ')).toBe('?');
  });
});
