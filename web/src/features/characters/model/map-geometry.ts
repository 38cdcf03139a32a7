/**
 * The Character Relationship Map's geometry and drawing rules, exactly as spec 001 §9:
 * an SVG viewBox of 800×350 in a 400 px high container, characters on a circle of radius 120
 * around (400, 175) — node i of n at angle 2πi/n —, node radius 40 for a main character and 30
 * otherwise, zoom step 0.2 in 0.5–2 (default 1), link colours per relationship type with conflict
 * and romantic dashed, descriptions truncated at 30 characters in the link tooltip.
 */
import type { Character, CharacterRelationship } from '@chronicler/schema';

export type RelationshipType = CharacterRelationship['relationshipType'];

export const MAP_WIDTH = 800;
export const MAP_HEIGHT = 350;
export const MAP_VIEWBOX = `0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`;
/** Height of the container the SVG sits in, in CSS pixels. */
export const MAP_CONTAINER_HEIGHT = 400;
/** On a phone: the square round the circle of nodes (radius 120 + a main node 40 + its ring), centred on (400,175). */
export const PHONE_VIEWBOX_WIDTH = 350;
export const PHONE_VIEWBOX = `${400 - PHONE_VIEWBOX_WIDTH / 2} 0 ${PHONE_VIEWBOX_WIDTH} ${MAP_HEIGHT}`;
export const MAP_CENTER = { x: 400, y: 175 } as const;
export const MAP_CIRCLE_RADIUS = 120;
export const MAIN_NODE_RADIUS = 40;
export const NODE_RADIUS = 30;

export const ZOOM_STEP = 0.2;
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 2;
export const ZOOM_DEFAULT = 1;

export const TOOLTIP_MAX_CHARS = 30;

export const RELATIONSHIP_COLORS: Readonly<Record<RelationshipType, string>> = {
  ally: '#B4C6FC',
  enemy: '#FCA5A5',
  family: '#86EFAC',
  romantic: '#818CF8',
  conflict: '#F87171',
  mentor: '#FAC858',
  professional: '#60A5FA',
};

export const RELATIONSHIP_LABELS: Readonly<Record<RelationshipType, string>> = {
  ally: 'Ally',
  enemy: 'Enemy',
  family: 'Family',
  romantic: 'Romantic',
  conflict: 'Conflict',
  mentor: 'Mentor',
  professional: 'Professional',
};

/** Conflict and romantic links are drawn dashed (001 §9). */
export function isDashed(type: RelationshipType): boolean {
  return type === 'conflict' || type === 'romantic';
}

export const DASH_ARRAY = '6 5';

export function linkStyle(type: RelationshipType): { stroke: string; strokeDasharray: string | undefined } {
  return { stroke: RELATIONSHIP_COLORS[type], strokeDasharray: isDashed(type) ? DASH_ARRAY : undefined };
}

/** Which Mantine colour a node is filled with: main blue, antagonist red, others indigo (001 §9). */
export type NodeColor = 'blue' | 'red' | 'indigo';

export function nodeColor(character: Pick<Character, 'isProtagonist' | 'role'>): NodeColor {
  if (character.isProtagonist) return 'blue';
  if (character.role === 'antagonist') return 'red';
  return 'indigo';
}

/**
 * The shade each node colour is drawn in: dark enough that the white name on it reads at 4.5:1 in
 * every theme. As a Mantine colour key and as its CSS variable.
 */
export const NODE_SHADES: Readonly<Record<NodeColor, { key: string; css: string }>> = {
  blue: { key: 'blue.8', css: 'var(--mantine-color-blue-8)' },
  red: { key: 'red.9', css: 'var(--mantine-color-red-9)' },
  indigo: { key: 'indigo.8', css: 'var(--mantine-color-indigo-8)' },
};

export function nodeRadius(character: Pick<Character, 'isProtagonist'>): number {
  return character.isProtagonist ? MAIN_NODE_RADIUS : NODE_RADIUS;
}

export interface MapNode<C extends Pick<Character, 'id' | 'isProtagonist'> = Pick<Character, 'id' | 'isProtagonist'>> {
  character: C;
  x: number;
  y: number;
  r: number;
}

/** Node i of n sits at angle 2πi/n on the circle of radius 120 around (400, 175). */
export function layoutNodes<C extends Pick<Character, 'id' | 'isProtagonist'>>(characters: readonly C[]): MapNode<C>[] {
  const n = characters.length;
  return characters.map((character, i) => {
    const angle = (2 * Math.PI * i) / n;
    return {
      character,
      x: MAP_CENTER.x + MAP_CIRCLE_RADIUS * Math.cos(angle),
      y: MAP_CENTER.y + MAP_CIRCLE_RADIUS * Math.sin(angle),
      r: nodeRadius(character),
    };
  });
}

/** Rounds to 2 decimals so floating point noise never shows up in the SVG or in tests. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export function clampZoom(zoom: number): number {
  return round(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom)));
}
export function zoomIn(zoom: number): number {
  return clampZoom(zoom + ZOOM_STEP);
}
export function zoomOut(zoom: number): number {
  return clampZoom(zoom - ZOOM_STEP);
}

/** The tooltip text: the description cut at 30 characters with an ellipsis. */
export function truncateDescription(text: string, max = TOOLTIP_MAX_CHARS): string {
  const clean = text.trim();
  return clean.length > max ? `${clean.slice(0, max).trimEnd()}...` : clean;
}

export interface MapLink<R extends CharacterRelationship = CharacterRelationship> {
  relationship: R;
  /** SVG path from the source centre to the target centre (straight, or bowed when parallel). */
  path: string;
  /** Where the tooltip is anchored (the middle of the path). */
  mid: { x: number; y: number };
}

/**
 * The links between placed nodes. Several relationships between the same two characters are bowed
 * apart so that each stays visible and clickable; a single one is a straight line. Relationships
 * whose characters are not on the map are left out.
 */
export function layoutLinks<R extends CharacterRelationship>(relationships: readonly R[], nodes: readonly MapNode[]): MapLink<R>[] {
  const byId = new Map(nodes.map((n) => [n.character.id, n]));
  const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const groups = new Map<string, R[]>();
  for (const rel of relationships) {
    if (!byId.has(rel.sourceCharacterId) || !byId.has(rel.targetCharacterId)) continue;
    if (rel.sourceCharacterId === rel.targetCharacterId) continue;
    const key = pairKey(rel.sourceCharacterId, rel.targetCharacterId);
    const list = groups.get(key) ?? [];
    list.push(rel);
    groups.set(key, list);
  }
  const links: MapLink<R>[] = [];
  for (const list of groups.values()) {
    list.forEach((relationship, index) => {
      const a = byId.get(relationship.sourceCharacterId)!;
      const b = byId.get(relationship.targetCharacterId)!;
      // Offsets 0, +28, -28, +56, … measured from a canonical direction so opposite-facing pairs agree.
      const forward = relationship.sourceCharacterId < relationship.targetCharacterId;
      const step = list.length === 1 ? 0 : (index % 2 === 0 ? 1 : -1) * Math.ceil(index / 2) * 28 + (list.length % 2 === 0 ? 14 : 0);
      const offset = forward ? step : -step;
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      // Unit normal to the segment.
      const nx = -dy / len;
      const ny = dx / len;
      if (offset === 0) {
        links.push({
          relationship,
          path: `M ${round(a.x)} ${round(a.y)} L ${round(b.x)} ${round(b.y)}`,
          mid: { x: round(mx), y: round(my) },
        });
        return;
      }
      // A quadratic curve whose control point is 2×offset away puts the curve's middle at offset.
      const cx = mx + nx * offset * 2;
      const cy = my + ny * offset * 2;
      links.push({
        relationship,
        path: `M ${round(a.x)} ${round(a.y)} Q ${round(cx)} ${round(cy)} ${round(b.x)} ${round(b.y)}`,
        mid: { x: round(mx + nx * offset), y: round(my + ny * offset) },
      });
    });
  }
  return links;
}

/**
 * The width of a character of the node font (bold sans-serif), in font sizes: generous, so that a
 * line measured to fit never spills out of its circle (white text outside a node cannot be read
 * on a light page).
 */
function glyphWidth(char: string): number {
  // About the widths of DejaVu Sans Bold, the widest of the usual sans-serif fonts.
  if (/[mwMW@%…]/.test(char)) return 1.04;
  if (/[\p{Lu}\p{N}]/u.test(char)) return 0.78;
  if (/[iljI.,;:'’!| ]/.test(char)) return 0.36;
  if (/[frt()-]/.test(char)) return 0.5;
  return 0.7;
}

/** The estimated width of `text` at font size 1 (`glyphWidth`). */
export function labelWidth(text: string): number {
  let width = 0;
  for (const char of text) width += glyphWidth(char);
  return width;
}

/** Smallest label font, in map units: ~9.5 px on a phone's screen, where the map is drawn about 1:1. */
export const MIN_LABEL_FONT = 9.5;
export const LABEL_MAX_LINES = 3;
export const LABEL_LINE_HEIGHT = 1.15;

/** The widest a line may be at `offset` from the node's centre: the chord there, less a margin. */
function chordAt(radius: number, offset: number, fontSize: number): number {
  const edge = Math.abs(offset) + fontSize / 2;
  return edge >= radius ? 0 : 2 * Math.sqrt(radius * radius - edge * edge) - 6;
}

function wrap(words: readonly string[], fits: (line: string) => boolean): string[] {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && fits(`${last} ${word}`)) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

function linesFit(lines: readonly string[], radius: number, size: number): boolean {
  if (lines.length > LABEL_MAX_LINES) return false;
  const top = -((lines.length - 1) * size * LABEL_LINE_HEIGHT) / 2;
  // A line but the last is drawn with its trailing space (RelationshipMap's NodeLabel), centred with it.
  return lines.every((line, i) => labelWidth(i < lines.length - 1 ? `${line} ` : line) * size <= chordAt(radius, top + i * size * LABEL_LINE_HEIGHT, size));
}

/** `text` cut to fit `width` at `size`, ending in "…". */
function shortenTo(text: string, width: number, size: number): string {
  let cut = text;
  while (cut.length > 1 && labelWidth(`${cut}…`) * size > width) cut = cut.slice(0, -1).trimEnd();
  return `${cut}…`;
}

/**
 * The name inside its node, readable in every theme (white text that spilled out of a node was
 * lost on a light page): words wrapped onto up to three lines, each within the circle's chord at
 * its height, the font made smaller down to a legible minimum. A name that cannot fit even then
 * is shortened with "…" (`shortened`): the map then shows the full name on hover and focus, and
 * the node's accessible name has it.
 */
export function nodeLabelLines(name: string, radius: number): { lines: string[]; fontSize: number; shortened: boolean } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const base = radius >= MAIN_NODE_RADIUS ? 13 : 11.5;
  for (let size = base; size >= MIN_LABEL_FONT; size -= 0.5) {
    const lines = wrap(words, (line) => labelWidth(line) * size <= chordAt(radius, 0, size));
    if (linesFit(lines, radius, size)) return { lines, fontSize: size, shortened: false };
  }
  // At the smallest size: as many lines as fit; a line too wide, or the last when words are left, ends in "…".
  const size = MIN_LABEL_FONT;
  const all = wrap(words, (line) => labelWidth(line) * size <= chordAt(radius, 0, size));
  for (let count = Math.min(all.length, LABEL_MAX_LINES); count >= 1; count--) {
    const top = -((count - 1) * size * LABEL_LINE_HEIGHT) / 2;
    const candidate = all.slice(0, count).map((line, i) => {
      const width = chordAt(radius, top + i * size * LABEL_LINE_HEIGHT, size);
      const wordsLeft = i === count - 1 && count < all.length;
      return labelWidth(line) * size <= width && !wordsLeft ? line : shortenTo(line, width, size);
    });
    if (linesFit(candidate, radius, size)) return { lines: candidate, fontSize: size, shortened: true };
  }
  return { lines: [shortenTo(words[0] ?? '', chordAt(radius, 0, size), size)], fontSize: size, shortened: true };
}
