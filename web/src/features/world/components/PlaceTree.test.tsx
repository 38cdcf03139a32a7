/** The tree of places as a WAI-ARIA tree: roles and states, and every key of the pattern. */
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { newId, type Location } from '@chronicler/schema';
import { serverLocation } from '@/test/fixtures';
import { renderInTheme } from '@/test/render';
import { locationTree, visibleTreeRows } from '../model/place-tree';
import { PlaceTree } from './PlaceTree';

const SERIES = newId();
const place = (name: string, parent: Location | null = null) => serverLocation(SERIES, { name, parentId: parent?.id ?? null });
// Earthsea > Archipelago > (Havnor, Roke > School); Kargad Lands > Atuan.
const earthsea = place('Earthsea');
const archipelago = place('Archipelago', earthsea);
const havnor = place('Havnor', archipelago);
const roke = place('Roke', archipelago);
const school = place('School', roke);
const kargad = place('Kargad Lands');
const atuan = place('Atuan', kargad);
const WORLD = locationTree([earthsea, archipelago, havnor, roke, school, kargad, atuan]);

/** The tree as the Locations tab drives it: expanded places and the active one in state. */
function Harness({ onOpen }: { onOpen: (l: Location) => void }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [activeId, setActiveId] = useState<string | null>(null);
  return (
    <PlaceTree
      rows={visibleTreeRows(WORLD, expanded, '')}
      activeId={activeId}
      onActiveChange={setActiveId}
      onToggle={(id, open) =>
        setExpanded((now) => {
          const next = new Set(now);
          if (open) next.add(id);
          else next.delete(id);
          return next;
        })
      }
      onExpandAll={(ids) => setExpanded((now) => new Set([...now, ...ids]))}
      onOpen={onOpen}
    />
  );
}

function setup() {
  const onOpen = vi.fn();
  const user = userEvent.setup({ delay: null });
  renderInTheme(<Harness onOpen={onOpen} />);
  const tree = screen.getByRole('tree', { name: 'Places' });
  const item = (name: string) => within(tree).getByRole('treeitem', { name });
  const nameOf = (el: Element | null) => el?.querySelector('[data-place-name]')?.textContent ?? null;
  const focused = () => nameOf(document.activeElement);
  const shown = () => within(tree).queryAllByRole('treeitem').map(nameOf);
  return { user, onOpen, tree, item, focused, shown };
}

describe('the tree of places', () => {
  it('is one tab stop; items carry level, position, size and whether they are open', async () => {
    const { user, item, focused, shown } = setup();
    expect(shown()).toEqual(['Earthsea', 'Kargad Lands']);
    expect(item('Earthsea').getAttribute('tabindex')).toBe('0');
    expect(item('Kargad Lands').getAttribute('tabindex')).toBe('-1');
    expect(item('Earthsea').getAttribute('aria-expanded')).toBe('false');
    expect(item('Earthsea').getAttribute('aria-selected')).toBe('true');
    expect([item('Kargad Lands').getAttribute('aria-level'), item('Kargad Lands').getAttribute('aria-posinset'), item('Kargad Lands').getAttribute('aria-setsize')]).toEqual(['1', '2', '2']);
    await user.tab();
    expect(focused()).toBe('Earthsea');
  });

  it('Right opens, then goes inside; Left closes, then goes up; Up and Down walk the shown places', async () => {
    const { user, item, focused, shown } = setup();
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(item('Earthsea').getAttribute('aria-expanded')).toBe('true');
    expect(focused()).toBe('Earthsea');
    await user.keyboard('{ArrowRight}');
    expect(focused()).toBe('Archipelago');
    expect(item('Archipelago').getAttribute('aria-level')).toBe('2');
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowDown}');
    expect(focused()).toBe('Roke');
    expect(shown()).toEqual(['Earthsea', 'Archipelago', 'Havnor', 'Roke', 'Kargad Lands']);
    // A leaf: Right does nothing.
    await user.keyboard('{ArrowUp}{ArrowRight}');
    expect(focused()).toBe('Havnor');
    expect(item('Havnor').hasAttribute('aria-expanded')).toBe(false);
    // Left on a closed place goes to the place it is inside; on an open one, closes it.
    await user.keyboard('{ArrowLeft}');
    expect(focused()).toBe('Archipelago');
    await user.keyboard('{ArrowLeft}');
    expect(item('Archipelago').getAttribute('aria-expanded')).toBe('false');
    expect(shown()).toEqual(['Earthsea', 'Archipelago', 'Kargad Lands']);
    await user.keyboard('{ArrowDown}');
    expect(focused()).toBe('Kargad Lands');
    // Down at the last place stays there.
    await user.keyboard('{ArrowDown}');
    expect(focused()).toBe('Kargad Lands');
    expect(item('Kargad Lands').getAttribute('aria-selected')).toBe('true');
    expect(item('Earthsea').getAttribute('tabindex')).toBe('-1');
  });

  it('Home and End go to the first and last shown place; * opens every place beside it; a letter jumps', async () => {
    const { user, focused, shown } = setup();
    await user.tab();
    await user.keyboard('*');
    expect(shown()).toEqual(['Earthsea', 'Archipelago', 'Kargad Lands', 'Atuan']);
    await user.keyboard('{End}');
    expect(focused()).toBe('Atuan');
    await user.keyboard('{Home}');
    expect(focused()).toBe('Earthsea');
    await user.keyboard('k');
    expect(focused()).toBe('Kargad Lands');
    await user.keyboard('a');
    expect(focused()).toBe('Atuan');
    // Wraps round to the first place starting with the letter.
    await user.keyboard('a');
    expect(focused()).toBe('Archipelago');
  });

  it('Enter and a double click open the place’s details; a click chooses it; the chevron opens it', async () => {
    const { user, onOpen, item, focused, shown } = setup();
    await user.tab();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onOpen).toHaveBeenLastCalledWith(kargad);
    await user.click(item('Earthsea'));
    expect(focused()).toBe('Earthsea');
    expect(item('Earthsea').getAttribute('aria-selected')).toBe('true');
    await user.dblClick(item('Earthsea'));
    expect(onOpen).toHaveBeenLastCalledWith(earthsea);
    const chevron = item('Kargad Lands').querySelector('[aria-hidden="true"]') as HTMLElement;
    await user.click(chevron);
    expect(shown()).toEqual(['Earthsea', 'Kargad Lands', 'Atuan']);
  });
});
