/** The relationship map shows whole names and pans by drag and keyboard. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { serverCharacter } from '@chronicler/sync-client/testing';
import { newId } from '@chronicler/schema';
import { renderInTheme } from '@/test/render';
import { RelationshipMap } from './RelationshipMap';

const seriesId = newId();
const characters = [
  serverCharacter(seriesId, { name: 'Lord Corven', isProtagonist: true }),
  serverCharacter(seriesId, { name: 'Old Hobb' }),
  serverCharacter(seriesId, { name: 'Ged' }),
];

function renderMap() {
  const noop = () => undefined;
  return renderInTheme(<RelationshipMap characters={characters} relationships={[]} onNodeClick={noop} onLinkClick={noop} onAddRelationship={noop} />);
}

describe('the relationship map', () => {
  it('draws a portrait in its node, under the name, and nothing for a character without one', () => {
    const withPortrait = serverCharacter(seriesId, { name: 'Tenar', avatarUrl: 'https://example.org/tenar.webp' });
    const noop = () => undefined;
    renderInTheme(<RelationshipMap characters={[withPortrait, characters[1]!]} relationships={[]} onNodeClick={noop} onLinkClick={noop} />);
    const node = (name: string) => screen.getAllByTestId('map-node').find((n) => n.querySelector('title')?.textContent === name)!;
    const portrait = node('Tenar').querySelector('[data-testid="map-node-portrait"]')!;
    expect(portrait.querySelector('image')!.getAttribute('href')).toBe('https://example.org/tenar.webp');
    expect(portrait.getAttribute('aria-hidden')).toBe('true');
    // The name stays on top of the picture.
    expect(portrait.compareDocumentPosition(node('Tenar').querySelector('[data-testid="map-node-label"]')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(node('Old Hobb').querySelector('[data-testid="map-node-portrait"]')).toBeNull();
  });

  it('shows each full name inside its node, with the full name as tooltip and accessible name', () => {
    renderMap();
    const nodes = screen.getAllByTestId('map-node');
    const corven = nodes.find((n) => n.querySelector('title')?.textContent === 'Lord Corven')!;
    expect(corven.getAttribute('aria-label')).toBe('Lord Corven, main character. Open details');
    const label = corven.querySelector('[data-testid="map-node-label"]')!;
    expect([...label.querySelectorAll('tspan')].map((t) => t.textContent)).toEqual(['Lord ', 'Corven']);
    expect(label.textContent).toBe('Lord Corven');
    const hobb = nodes.find((n) => n.querySelector('title')?.textContent === 'Old Hobb')!;
    expect(hobb.querySelector('[data-testid="map-node-label"]')!.textContent).toBe('Old Hobb');
  });

  it('fits "The Drowned Queen" whole; a name too long is shortened, and shown whole on hover and on focus', () => {
    const queen = serverCharacter(seriesId, { name: 'The Drowned Queen' });
    const marches = serverCharacter(seriesId, { name: 'Queen Isolde of the Drowned Western Marches' });
    const noop = () => undefined;
    renderInTheme(<RelationshipMap characters={[queen, marches]} relationships={[]} onNodeClick={noop} onLinkClick={noop} />);
    const node = (name: string) => screen.getByRole('button', { name: `${name}, supporting. Open details` });
    expect(node('The Drowned Queen').querySelector('[data-testid="map-node-label"]')!.textContent).toBe('The Drowned Queen');
    const long = node('Queen Isolde of the Drowned Western Marches');
    expect(long.querySelector('[data-testid="map-node-label"]')!.textContent).toMatch(/…$/);
    expect(screen.queryByTestId('map-node-name')).toBeNull();

    fireEvent.mouseEnter(long);
    expect(screen.getByTestId('map-node-name').textContent).toBe('Queen Isolde of the Drowned Western Marches');
    fireEvent.mouseLeave(long);
    expect(screen.queryByTestId('map-node-name')).toBeNull();
    fireEvent.focus(long);
    expect(screen.getByTestId('map-node-name').textContent).toBe('Queen Isolde of the Drowned Western Marches');
    fireEvent.blur(long);
    // A name shown whole needs no second copy.
    fireEvent.focus(node('The Drowned Queen'));
    expect(screen.queryByTestId('map-node-name')).toBeNull();
  });

  it('pans with the arrow keys when focused, and Reset puts it back', async () => {
    renderMap();
    const map = screen.getByRole('group', { name: /Character relationship map/ });
    expect(map.getAttribute('tabindex')).toBe('0');
    map.focus();
    fireEvent.keyDown(map, { key: 'ArrowLeft' });
    fireEvent.keyDown(map, { key: 'ArrowUp' });
    expect(map.getAttribute('data-pan')).toBe('40 40');
    expect(map.querySelector('g')!.getAttribute('transform')).toMatch(/^translate\(40 40\)/);
    await userEvent.click(screen.getByRole('button', { name: 'Reset zoom' }));
    expect(map.getAttribute('data-pan')).toBe('0 0');
  });

  it('pans by dragging the background with a pointer', () => {
    renderMap();
    const map = screen.getByRole('group', { name: /Character relationship map/ });
    map.getBoundingClientRect = () => ({ width: 800, height: 350, top: 0, left: 0, right: 800, bottom: 350, x: 0, y: 0, toJSON: () => ({}) });
    fireEvent.pointerDown(map, { pointerId: 1, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(map, { pointerId: 1, clientX: 160, clientY: 130 });
    fireEvent.pointerUp(map, { pointerId: 1 });
    expect(map.getAttribute('data-pan')).toBe('60 30');
  });
});
