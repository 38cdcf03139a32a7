import { describe, expect, it } from 'vitest';
import { characterAppearanceLabel } from '@chronicler/schema';
import { filterCharacters, inTab, tabCounts } from './filters';

const c = (name: string, role: string, isProtagonist = false) => ({ name, role, isProtagonist }) as never as {
  name: string;
  role: 'protagonist' | 'antagonist' | 'supporting' | 'mentor' | 'comic_relief' | 'minor';
  isProtagonist: boolean;
};

const cast = [
  c('Ged', 'protagonist', true),
  c('Tenar', 'supporting', true),
  c('Ogion', 'mentor'),
  c('Cob', 'antagonist'),
  c('Vetch', 'supporting'),
  c('Jasper', 'minor'),
  c('Fisherman', 'minor'),
];

describe('character tabs (001 §4)', () => {
  it('Main shows the characters marked main, whatever their role', () => {
    expect(filterCharacters(cast, 'main', '').map((x) => x.name)).toEqual(['Ged', 'Tenar']);
  });

  it('Supporting shows non-main characters whose role is not minor', () => {
    expect(filterCharacters(cast, 'supporting', '').map((x) => x.name)).toEqual(['Cob', 'Ogion', 'Vetch']);
  });

  it('Minor shows role minor', () => {
    expect(filterCharacters(cast, 'minor', '').map((x) => x.name)).toEqual(['Fisherman', 'Jasper']);
  });

  it('a main character with role minor appears under Main and Minor, as the filters say', () => {
    const odd = c('Yarrow', 'minor', true);
    expect(inTab(odd, 'main')).toBe(true);
    expect(inTab(odd, 'supporting')).toBe(false);
    expect(inTab(odd, 'minor')).toBe(true);
  });

  it('applies the name search as a case-insensitive substring match in every tab', () => {
    expect(filterCharacters(cast, 'main', 'TEN').map((x) => x.name)).toEqual(['Tenar']);
    expect(filterCharacters(cast, 'supporting', 'o').map((x) => x.name)).toEqual(['Cob', 'Ogion']);
    expect(filterCharacters(cast, 'minor', 'asp').map((x) => x.name)).toEqual(['Jasper']);
    expect(filterCharacters(cast, 'minor', 'zzz')).toEqual([]);
    expect(filterCharacters(cast, 'main', '   ').map((x) => x.name)).toEqual(['Ged', 'Tenar']);
  });

  it('counts each tab for the search', () => {
    expect(tabCounts(cast, '')).toEqual({ main: 2, supporting: 3, minor: 2 });
    expect(tabCounts(cast, 'e')).toEqual({ main: 2, supporting: 1, minor: 2 });
  });
});

describe('book appearance labels (001 §9)', () => {
  it('reads None, Book N, Books N and M, or a range', () => {
    expect(characterAppearanceLabel([])).toBe('None');
    expect(characterAppearanceLabel([2])).toBe('Book 2');
    expect(characterAppearanceLabel([3, 1])).toBe('Books 1 and 3');
    expect(characterAppearanceLabel([1, 2, 3])).toBe('Books 1-3');
    expect(characterAppearanceLabel([5, 1, 3])).toBe('Books 1-5');
  });
});
