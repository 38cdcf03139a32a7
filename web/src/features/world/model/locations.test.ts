import { describe, expect, it } from 'vitest';
import { newId, type Location } from '@chronicler/schema';
import { serverLocation } from '@/test/fixtures';
import { appearanceText, compareLocations, locationTypeLabel, matchesSearch, visibleLocations } from './locations';

const loc = (over: Partial<Location> = {}): Location => serverLocation(newId(), { name: 'Place', ...over });

describe('location search', () => {
  const rivendell = loc({ name: 'Rivendell', description: 'The Last Homely House east of the Sea', locationType: 'village' });
  const moria = loc({ name: 'Khazad-dûm', description: 'Dwarf halls under the mountains', locationType: 'cave' });

  it('keeps everything for a blank query', () => {
    expect(matchesSearch(rivendell, '')).toBe(true);
    expect(matchesSearch(rivendell, '   ')).toBe(true);
  });

  it('matches a case-insensitive substring of the name', () => {
    expect(matchesSearch(rivendell, 'rIVEN')).toBe(true);
    expect(matchesSearch(rivendell, 'mordor')).toBe(false);
  });

  it('ignores accents and surrounding spaces', () => {
    expect(matchesSearch(moria, '  khazad-dum ')).toBe(true);
  });

  it('matches the description and the type label too', () => {
    expect(matchesSearch(moria, 'dwarf')).toBe(true);
    expect(matchesSearch(moria, 'cave')).toBe(true);
    expect(matchesSearch(rivendell, 'Village')).toBe(true);
  });

  it('shows main locations first, then secondary, then minor, by name within each', () => {
    const list = [
      loc({ name: 'zeta', importance: 'minor' }),
      loc({ name: 'Beta', importance: 'secondary' }),
      loc({ name: 'alpha', importance: 'secondary' }),
      loc({ name: 'Omega', importance: 'main' }),
    ];
    expect(visibleLocations(list, '').map((l) => l.name)).toEqual(['Omega', 'alpha', 'Beta', 'zeta']);
    expect(visibleLocations(list, 'eta').map((l) => l.name)).toEqual(['Beta', 'zeta']);
    expect([...list].sort(compareLocations)[0]!.name).toBe('Omega');
  });
});

describe('labels', () => {
  it('lists book appearances comma-separated (locationAppearanceLabel)', () => {
    expect(appearanceText([])).toBe('No book appearances');
    expect(appearanceText([2])).toBe('Book 2');
    expect(appearanceText([5, 1, 3, 3])).toBe('Books 1, 3, 5');
  });

  it('names every location type and falls back to Other', () => {
    expect(locationTypeLabel('ruins')).toBe('Ruins');
    expect(locationTypeLabel('general')).toBe('General');
    expect(locationTypeLabel('spaceship')).toBe('Other');
  });
});
