import { describe, expect, it } from 'vitest';
import { newId, type Location } from '@chronicler/schema';
import { serverLocation } from '@/test/fixtures';
import { breadcrumbsOf, deleteConsequence, descendantCount, locationTree, parentChoices, placePath, visibleTreeRows } from './place-tree';

const SERIES = newId();
const place = (name: string, parent: Location | null = null, over: Partial<Location> = {}) => serverLocation(SERIES, { name, parentId: parent?.id ?? null, ...over });

// Earthsea > Archipelago > (Roke > School, Havnor); Kargad Lands.
const earthsea = place('Earthsea', null, { importance: 'main' });
const archipelago = place('Archipelago', earthsea);
const roke = place('Roke', archipelago, { description: 'The school of wizards' });
const school = place('School', roke);
const havnor = place('Havnor', archipelago);
const kargad = place('Kargad Lands');
const world = locationTree([school, kargad, roke, havnor, archipelago, earthsea]);

const names = (rows: ReturnType<typeof visibleTreeRows>) => rows.map((r) => `${'  '.repeat(r.level - 1)}${r.place.name}`);

describe('the rows of the tree', () => {
  it('shows the top level (main places first), and inside each opened place its places', () => {
    expect(names(visibleTreeRows(world, new Set(), ''))).toEqual(['Earthsea', 'Kargad Lands']);
    const rows = visibleTreeRows(world, new Set([earthsea.id, archipelago.id]), '');
    expect(names(rows)).toEqual(['Earthsea', '  Archipelago', '    Havnor', '    Roke', 'Kargad Lands']);
    expect(rows.map((r) => [r.position, r.siblings, r.childCount, r.expanded])).toEqual([
      [1, 2, 1, true],
      [1, 1, 2, true],
      [1, 2, 0, false],
      [2, 2, 1, false],
      [2, 2, 0, false],
    ]);
    expect(rows[3]!.parentId).toBe(archipelago.id);
  });

  it('searching shows the matches with every place they are inside, opened, and nothing else', () => {
    const rows = visibleTreeRows(world, new Set(), 'wizards');
    expect(names(rows)).toEqual(['Earthsea', '  Archipelago', '    Roke']);
    expect(rows.map((r) => r.match)).toEqual([false, false, true]);
    // Roke matches; the School inside it does not, so Roke shows no places inside.
    expect(rows[2]!.childCount).toBe(0);
    expect(visibleTreeRows(world, new Set(), 'mordor')).toEqual([]);
  });

  it('draws places whose moves looped (two devices) at the top level, marked, and never hangs', () => {
    const a = place('A');
    const b = place('B', a);
    const looping = locationTree([{ ...a, parentId: b.id }, b]);
    const rows = visibleTreeRows(looping, new Set([a.id, b.id]), '');
    expect(names(rows)).toEqual(['A', 'B']);
    expect(rows.every((r) => r.looped)).toBe(true);
  });
});

describe('where a place is', () => {
  it('has breadcrumbs from the top level down and a path', () => {
    expect(breadcrumbsOf(world, school.id).map((p) => p.name)).toEqual(['Earthsea', 'Archipelago', 'Roke']);
    expect(placePath(world, school)).toBe('Earthsea › Archipelago › Roke › School');
    expect(breadcrumbsOf(world, earthsea.id)).toEqual([]);
    expect(descendantCount(world, archipelago.id)).toBe(3);
  });

  it('may move anywhere but into itself or a place within it', () => {
    expect(parentChoices(world, archipelago.id).map((c) => c.label)).toEqual(['Earthsea', 'Kargad Lands']);
    expect(parentChoices(world, null)).toHaveLength(6);
    expect(parentChoices(world, school.id).map((c) => c.depth)).toEqual([0, 1, 2, 2, 0]);
  });

  it('says what a delete does to the places inside', () => {
    expect(deleteConsequence(world, archipelago)).toBe('The 2 places inside Archipelago are not deleted: they move up into Earthsea.');
    expect(deleteConsequence(world, roke)).toBe('The place inside Roke is not deleted: it moves up into Archipelago.');
    expect(deleteConsequence(world, earthsea)).toBe('The place inside Earthsea is not deleted: it moves up to the top level.');
    expect(deleteConsequence(world, kargad)).toBe('');
  });
});
