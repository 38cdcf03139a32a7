import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CharacterRelationship } from '@chronicler/schema';
import {
  MAIN_NODE_RADIUS,
  MAP_CENTER,
  MAP_CIRCLE_RADIUS,
  MAP_CONTAINER_HEIGHT,
  MAP_VIEWBOX,
  NODE_RADIUS,
  RELATIONSHIP_COLORS,
  ZOOM_DEFAULT,
  clampZoom,
  isDashed,
  layoutLinks,
  layoutNodes,
  linkStyle,
  nodeColor,
  LABEL_LINE_HEIGHT,
  LABEL_MAX_LINES,
  MIN_LABEL_FONT,
  labelWidth,
  nodeLabelLines,
  truncateDescription,
  zoomIn,
  zoomOut,
} from './map-geometry';

const chars = (n: number, main: number[] = []) =>
  Array.from({ length: n }, (_, i) => ({ id: `c${i}`, isProtagonist: main.includes(i) }));

const round = (v: number) => Math.round(v * 1000) / 1000;

describe('layoutNodes: the spec geometry (001 §9)', () => {
  it('uses an 800×350 viewBox in a 400 px container around (400,175) with radius 120', () => {
    expect(MAP_VIEWBOX).toBe('0 0 800 350');
    expect(MAP_CONTAINER_HEIGHT).toBe(400);
    expect(MAP_CENTER).toEqual({ x: 400, y: 175 });
    expect(MAP_CIRCLE_RADIUS).toBe(120);
  });

  it('places one character at angle 0: (520, 175)', () => {
    const [node] = layoutNodes(chars(1));
    expect(round(node!.x)).toBe(520);
    expect(round(node!.y)).toBe(175);
  });

  it('places two characters opposite each other', () => {
    const nodes = layoutNodes(chars(2)).map((n) => [round(n.x), round(n.y)]);
    expect(nodes).toEqual([
      [520, 175],
      [280, 175],
    ]);
  });

  it('places four characters at the four quarter turns (clockwise on screen)', () => {
    const nodes = layoutNodes(chars(4)).map((n) => [round(n.x), round(n.y)]);
    expect(nodes).toEqual([
      [520, 175],
      [400, 295],
      [280, 175],
      [400, 55],
    ]);
  });

  it.each([1, 2, 3, 4, 5, 6])('puts node i of %i at angle 2πi/n on the circle', (n) => {
    const nodes = layoutNodes(chars(n));
    expect(nodes).toHaveLength(n);
    nodes.forEach((node, i) => {
      const angle = (2 * Math.PI * i) / n;
      expect(node.x).toBeCloseTo(400 + 120 * Math.cos(angle), 9);
      expect(node.y).toBeCloseTo(175 + 120 * Math.sin(angle), 9);
      expect(Math.hypot(node.x - 400, node.y - 175)).toBeCloseTo(120, 9);
    });
  });

  it('gives main characters radius 40 and everyone else 30', () => {
    const nodes = layoutNodes(chars(6, [0, 3]));
    expect(nodes.map((n) => n.r)).toEqual([40, 30, 30, 40, 30, 30]);
    expect(MAIN_NODE_RADIUS).toBe(40);
    expect(NODE_RADIUS).toBe(30);
  });

  it('keeps the characters in order and returns nothing for an empty cast', () => {
    expect(layoutNodes(chars(3)).map((n) => n.character.id)).toEqual(['c0', 'c1', 'c2']);
    expect(layoutNodes([])).toEqual([]);
  });
});

describe('node colours', () => {
  it('is blue for a main character, red for an antagonist, indigo otherwise', () => {
    expect(nodeColor({ isProtagonist: true, role: 'antagonist' })).toBe('blue');
    expect(nodeColor({ isProtagonist: false, role: 'antagonist' })).toBe('red');
    for (const role of ['protagonist', 'supporting', 'mentor', 'comic_relief', 'minor'] as const) {
      expect(nodeColor({ isProtagonist: false, role })).toBe('indigo');
    }
  });
});

describe('relationship colours and dashes', () => {
  it('uses the spec colours', () => {
    expect(RELATIONSHIP_COLORS).toEqual({
      ally: '#B4C6FC',
      enemy: '#FCA5A5',
      family: '#86EFAC',
      romantic: '#818CF8',
      conflict: '#F87171',
      mentor: '#FAC858',
      professional: '#60A5FA',
    });
  });

  it('dashes only conflict and romantic links', () => {
    expect(Object.keys(RELATIONSHIP_COLORS).filter((t) => isDashed(t as never))).toEqual(['romantic', 'conflict']);
    expect(linkStyle('romantic')).toEqual({ stroke: '#818CF8', strokeDasharray: expect.any(String) });
    expect(linkStyle('ally')).toEqual({ stroke: '#B4C6FC', strokeDasharray: undefined });
  });
});

describe('zoom', () => {
  it('steps by 0.2 from a default of 1', () => {
    expect(ZOOM_DEFAULT).toBe(1);
    expect(zoomIn(1)).toBe(1.2);
    expect(zoomOut(1)).toBe(0.8);
    expect(zoomIn(zoomIn(1))).toBe(1.4);
  });

  it('stays within 0.5 and 2', () => {
    let z = 1;
    for (let i = 0; i < 20; i++) z = zoomIn(z);
    expect(z).toBe(2);
    for (let i = 0; i < 20; i++) z = zoomOut(z);
    expect(z).toBe(0.5);
    expect(clampZoom(7)).toBe(2);
    expect(clampZoom(0)).toBe(0.5);
  });

  it('reaches the bounds exactly from the default without drift', () => {
    const ups = [1.2, 1.4, 1.6, 1.8, 2, 2];
    let z = 1;
    expect(ups.map(() => (z = zoomIn(z)))).toEqual(ups);
    const downs = [0.8, 0.6, 0.5, 0.5];
    z = 1;
    expect(downs.map(() => (z = zoomOut(z)))).toEqual(downs);
  });
});

describe('tooltip text', () => {
  it('keeps descriptions of up to 30 characters', () => {
    expect(truncateDescription('Sworn brothers')).toBe('Sworn brothers');
    expect(truncateDescription('x'.repeat(30))).toBe('x'.repeat(30));
  });
  it('cuts longer ones at 30 characters', () => {
    expect(truncateDescription('They grew up together in the northern reaches')).toBe('They grew up together in the n...');
  });
});

describe('layoutLinks', () => {
  const rel = (id: string, s: string, t: string): CharacterRelationship => ({
    id,
    rev: 1,
    createdAt: '',
    updatedAt: '',
    deletedAt: null,
    seriesId: 's',
    sourceCharacterId: s,
    targetCharacterId: t,
    relationshipType: 'ally',
    description: '',
  });

  it('draws a straight line between the two node centres', () => {
    const nodes = layoutNodes(chars(2));
    const [link] = layoutLinks([rel('r1', 'c0', 'c1')], nodes);
    expect(link!.path).toBe('M 520 175 L 280 175');
    expect(link!.mid).toEqual({ x: 400, y: 175 });
  });

  it('bows parallel relationships apart so each stays visible', () => {
    const nodes = layoutNodes(chars(2));
    const links = layoutLinks([rel('r1', 'c0', 'c1'), rel('r2', 'c1', 'c0')], nodes);
    expect(links).toHaveLength(2);
    expect(new Set(links.map((l) => l.path)).size).toBe(2);
    expect(links[0]!.mid.y).not.toBe(links[1]!.mid.y);
  });

  it('leaves out links to characters that are not on the map', () => {
    expect(layoutLinks([rel('r1', 'c0', 'gone')], layoutNodes(chars(2)))).toEqual([]);
  });
});

describe('nodeLabelLines: a readable name inside its node', () => {
  it('wraps a name onto lines instead of dropping a word', () => {
    expect(nodeLabelLines('Lord Corven', 30).lines).toEqual(['Lord', 'Corven']);
    expect(nodeLabelLines('Old Hobb', 30).lines.join(' ')).toBe('Old Hobb');
    expect(nodeLabelLines('Ged', 40)).toEqual({ lines: ['Ged'], fontSize: 13, shortened: false });
  });

  it('fits "The Drowned Queen" whole in a supporting node, at a legible size', () => {
    const label = nodeLabelLines('The Drowned Queen', 30);
    expect(label.lines.join(' ')).toBe('The Drowned Queen');
    expect(label.shortened).toBe(false);
    expect(label.fontSize).toBeGreaterThanOrEqual(MIN_LABEL_FONT);
  });

  it('shortens a name too long for its node with "…", never below the legible size', () => {
    const label = nodeLabelLines('Queen Isolde of the Drowned Western Marches', 30);
    expect(label.shortened).toBe(true);
    expect(label.fontSize).toBe(MIN_LABEL_FONT);
    expect(label.lines.at(-1)).toMatch(/…$/);
    expect(nodeLabelLines('Wolfeschlegelsteinhausenbergerdorff', 30).lines[0]).toMatch(/^Wolfe.*…$/);
  });

  it('keeps every line inside the circle at its height, at a legible size, whole unless shortened', () => {
    const word = fc.stringMatching(/^[A-Za-zÀ-ÿ’'-]{1,14}$/);
    const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(text, fc.constantFrom(30, 40), (name, r) => {
        const { lines, fontSize, shortened } = nodeLabelLines(name, r);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.length).toBeLessThanOrEqual(LABEL_MAX_LINES);
        expect(fontSize).toBeGreaterThanOrEqual(MIN_LABEL_FONT);
        const step = fontSize * LABEL_LINE_HEIGHT;
        lines.forEach((line, i) => {
          const y = Math.abs(-((lines.length - 1) * step) / 2 + i * step) + fontSize / 2;
          const drawn = i < lines.length - 1 ? `${line} ` : line;
          expect(labelWidth(drawn) * fontSize).toBeLessThanOrEqual(2 * Math.sqrt(r * r - y * y) + 0.01);
        });
        if (!shortened) expect(lines.join(' ')).toBe(name);
      }),
      { numRuns: 300 },
    );
  });
});
