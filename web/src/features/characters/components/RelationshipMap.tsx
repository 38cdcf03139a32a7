import { memo, useMemo, useState, type KeyboardEvent } from 'react';
import { ActionIcon, Box, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconLink, IconUsers, IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { RELATIONSHIP_TYPES, type Character, type CharacterRelationship } from '@chronicler/schema';
import { useMediaQuery } from '@mantine/hooks';
import { DeferredTooltip } from '@/lib/first-load';
import { usePictureSource } from '@/components/pictures/pictureSource';
import { ROLE_LABELS } from '../model/character-form';
import { useMapPan } from '../hooks/useMapPan';
import {
  LABEL_LINE_HEIGHT,
  MAP_CENTER,
  MAP_CONTAINER_HEIGHT,
  MAP_VIEWBOX,
  MAP_WIDTH,
  PHONE_VIEWBOX,
  PHONE_VIEWBOX_WIDTH,
  NODE_SHADES,
  RELATIONSHIP_LABELS,
  ZOOM_DEFAULT,
  ZOOM_MAX,
  ZOOM_MIN,
  layoutLinks,
  layoutNodes,
  linkStyle,
  nodeColor,
  nodeLabelLines,
  truncateDescription,
  zoomIn,
  zoomOut,
  type MapLink,
} from '../model/map-geometry';
import classes from '../characters.module.css';

export interface RelationshipMapProps {
  characters: readonly Character[];
  relationships: readonly CharacterRelationship[];
  onNodeClick: (character: Character) => void;
  onLinkClick: (relationship: CharacterRelationship) => void;
  /** Absent for a viewer of a shared series (and a line then opens nothing to edit). */
  onAddRelationship?: () => void;
}

function activate(handler: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      handler();
    }
  };
}

function tooltipText(relationship: CharacterRelationship): string {
  const label = RELATIONSHIP_LABELS[relationship.relationshipType];
  const text = truncateDescription(relationship.description);
  return text ? `${label}: ${text}` : label;
}

/** The Character Relationship Map (001 §2, §9): characters on a circle, typed links, zoom. */
export const RelationshipMap = memo(function RelationshipMap({ characters, relationships, onNodeClick, onLinkClick, onAddRelationship }: RelationshipMapProps) {
  const [zoom, setZoom] = useState(ZOOM_DEFAULT);
  const [activeLink, setActiveLink] = useState<string | null>(null);
  // The node under the pointer or focus: a shortened name shows whole above it.
  const [activeNode, setActiveNode] = useState<string | null>(null);

  const nodes = useMemo(() => layoutNodes(characters), [characters]);
  const links = useMemo(() => layoutLinks(relationships, nodes), [relationships, nodes]);
  const names = useMemo(() => new Map(characters.map((c) => [c.id, c.name])), [characters]);
  const active = links.find((l) => l.relationship.id === activeLink) ?? null;
  const labels = useMemo(() => new Map(nodes.map((n) => [n.character.id, nodeLabelLines((n.character as Character).name, n.r)])), [nodes]);
  const named = nodes.find((n) => n.character.id === activeNode && labels.get(activeNode)?.shortened) ?? null;

  // On a phone the drawing is framed tightly round the circle of characters (the spec's 800-wide
  // view left nodes 14 px across on a 390 px screen), in a box as tall as it needs.
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const viewBox = phone ? PHONE_VIEWBOX : MAP_VIEWBOX;
  const { pan, reset: resetPan, handlers: panHandlers } = useMapPan(zoom, phone ? PHONE_VIEWBOX_WIDTH : MAP_WIDTH);
  const transform = `translate(${pan.x} ${pan.y}) translate(${MAP_CENTER.x} ${MAP_CENTER.y}) scale(${zoom}) translate(${-MAP_CENTER.x} ${-MAP_CENTER.y})`;
  const moved = pan.x !== 0 || pan.y !== 0;

  const linkLabel = (l: MapLink) => {
    const r = l.relationship;
    const from = names.get(r.sourceCharacterId) ?? 'Unknown';
    const to = names.get(r.targetCharacterId) ?? 'Unknown';
    return `${from} and ${to}: ${RELATIONSHIP_LABELS[r.relationshipType]}${r.description ? `, ${r.description}` : ''}. Edit relationship`;
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Group gap={4} role="group" aria-label="Zoom">
          <DeferredTooltip label="Zoom out" withArrow>
            <ActionIcon variant="default" size="lg" aria-label="Zoom out" onClick={() => setZoom(zoomOut)} disabled={zoom <= ZOOM_MIN}>
              <IconZoomOut size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
          <Text size="sm" fw={600} w={52} ta="center" aria-live="polite" data-testid="zoom-level">
            {Math.round(zoom * 100)}%
          </Text>
          <DeferredTooltip label="Zoom in" withArrow>
            <ActionIcon variant="default" size="lg" aria-label="Zoom in" onClick={() => setZoom(zoomIn)} disabled={zoom >= ZOOM_MAX}>
              <IconZoomIn size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
          <DeferredTooltip label="Reset zoom" withArrow>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Reset zoom"
              onClick={() => {
                setZoom(ZOOM_DEFAULT);
                resetPan();
              }}
              disabled={zoom === ZOOM_DEFAULT && !moved}
            >
              <IconZoomReset size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
        </Group>
        {onAddRelationship ? (
          <Button leftSection={<IconLink size={16} aria-hidden />} onClick={onAddRelationship} disabled={characters.length < 2} radius="xl">
            Add Relationship
          </Button>
        ) : null}
      </Group>

      <Box className={classes.mapFrame} h={phone ? undefined : MAP_CONTAINER_HEIGHT} data-phone={phone || undefined} data-testid="relationship-map">
        {characters.length === 0 ? (
          <Stack align="center" justify="center" h="100%" gap={6} p="md">
            <IconUsers size={32} stroke={1.5} aria-hidden />
            <Text fw={600}>No characters on the map yet</Text>
            <Text size="sm" c="dimmed" ta="center">
              Add characters to this series to see how they relate.
            </Text>
          </Stack>
        ) : (
          <svg
            className={classes.mapSvg}
            viewBox={viewBox}
            preserveAspectRatio="xMidYMid meet"
            role="group"
            tabIndex={0}
            aria-label={`Character relationship map: ${characters.length} ${characters.length === 1 ? 'character' : 'characters'}, ${links.length} ${links.length === 1 ? 'relationship' : 'relationships'}`}
            aria-describedby="map-pan-help"
            data-zoom={zoom}
            data-pan={`${Math.round(pan.x)} ${Math.round(pan.y)}`}
            {...panHandlers}
          >
            <g className={classes.zoomGroup} transform={transform}>
              <g>
                {links.map((l) => {
                  const style = linkStyle(l.relationship.relationshipType);
                  const id = l.relationship.id;
                  return (
                    <g
                      key={id}
                      className={classes.link}
                      role="button"
                      tabIndex={0}
                      aria-label={linkLabel(l)}
                      data-testid="map-link"
                      data-type={l.relationship.relationshipType}
                      data-active={activeLink === id}
                      onClick={() => onLinkClick(l.relationship)}
                      onKeyDown={activate(() => onLinkClick(l.relationship))}
                      onMouseEnter={() => setActiveLink(id)}
                      onMouseLeave={() => setActiveLink((cur) => (cur === id ? null : cur))}
                      onFocus={() => setActiveLink(id)}
                      onBlur={() => setActiveLink((cur) => (cur === id ? null : cur))}
                    >
                      <path d={l.path} className={classes.linkFocus} />
                      <path d={l.path} className={classes.linkLine} stroke={style.stroke} strokeDasharray={style.strokeDasharray} />
                      <path d={l.path} className={classes.linkHit} />
                    </g>
                  );
                })}
              </g>
              <g>
                {nodes.map((n) => {
                  const c = n.character as Character;
                  const fill = NODE_SHADES[nodeColor(c)].css;
                  const kind = c.isProtagonist ? 'main character' : ROLE_LABELS[c.role].toLowerCase();
                  const leave = () => setActiveNode((cur) => (cur === c.id ? null : cur));
                  return (
                    <g
                      key={c.id}
                      className={classes.node}
                      role="button"
                      tabIndex={0}
                      aria-label={`${c.name}, ${kind}. Open details`}
                      data-testid="map-node"
                      data-color={nodeColor(c)}
                      transform={`translate(${n.x.toFixed(2)} ${n.y.toFixed(2)})`}
                      onClick={() => onNodeClick(c)}
                      onKeyDown={activate(() => onNodeClick(c))}
                      onMouseEnter={() => setActiveNode(c.id)}
                      onMouseLeave={leave}
                      onFocus={() => setActiveNode(c.id)}
                      onBlur={leave}
                    >
                      <title>{c.name}</title>
                      <circle r={n.r + 5} className={classes.nodeRing} />
                      <circle r={n.r} fill={fill} className={classes.nodeCircle} />
                      <NodePortrait character={c} r={n.r} />
                      <NodeLabel label={labels.get(c.id)!} />
                    </g>
                  );
                })}
              </g>
              {active ? <MapTooltip x={active.mid.x} y={active.mid.y - 22} text={tooltipText(active.relationship)} /> : null}
              {named ? (
                <MapTooltip
                  x={named.x}
                  // Above the node, or below it when the node is at the top of the drawing.
                  y={named.y - named.r < 40 ? named.y + named.r + 18 : named.y - named.r - 18}
                  text={(named.character as Character).name}
                  bounds={phone ? { left: MAP_CENTER.x - PHONE_VIEWBOX_WIDTH / 2, right: MAP_CENTER.x + PHONE_VIEWBOX_WIDTH / 2 } : { left: 0, right: MAP_WIDTH }}
                  testId="map-node-name"
                />
              ) : null}
            </g>
          </svg>
        )}
      </Box>
      <VisuallyHidden id="map-pan-help">Drag the background, or focus the map and use the arrow keys, to move the map.</VisuallyHidden>

      <Group gap="md" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Relationship types">
        {RELATIONSHIP_TYPES.map((type) => {
          const style = linkStyle(type);
          return (
            <Group key={type} component="li" gap={6} wrap="nowrap">
              <span
                className={classes.legendSwatch}
                data-dashed={style.strokeDasharray ? 'true' : 'false'}
                style={{ ['--swatch' as string]: style.stroke }}
                aria-hidden
              />
              <Text size="xs">{RELATIONSHIP_LABELS[type]}</Text>
            </Group>
          );
        })}
      </Group>
    </Stack>
  );
});

/**
 * The character's portrait thumbnail filling the node (docs/decisions/0023-pictures-on-the-device.md),
 * dimmed so the white name on it stays readable; nothing without one.
 */
function NodePortrait({ character, r }: { character: Character; r: number }) {
  const { src } = usePictureSource(character.avatarUrl || character.avatar || null, character.seriesId, 'thumb');
  if (!src) return null;
  const clipId = `node-portrait-${character.id}`;
  return (
    <g aria-hidden data-testid="map-node-portrait">
      <clipPath id={clipId}>
        <circle r={r} />
      </clipPath>
      <image href={src} x={-r} y={-r} width={2 * r} height={2 * r} preserveAspectRatio="xMidYMid slice" clipPath={`url(#${clipId})`} />
      <circle r={r} fill="rgb(0 0 0 / 0.3)" />
    </g>
  );
}

/** The name wrapped inside the node, or shortened with "…" (`nodeLabelLines`). */
function NodeLabel({ label }: { label: ReturnType<typeof nodeLabelLines> }) {
  const { lines, fontSize } = label;
  const lineHeight = fontSize * LABEL_LINE_HEIGHT;
  const top = -((lines.length - 1) * lineHeight) / 2;
  return (
    <text className={classes.nodeLabel} textAnchor="middle" fontSize={fontSize} data-testid="map-node-label">
      {lines.map((line, i) => (
        <tspan key={i} x={0} y={top + i * lineHeight} dominantBaseline="central">
          {/* The space keeps the words apart in the text (the accessible name contains it as written). */}
          {i < lines.length - 1 ? `${line} ` : line}
        </tspan>
      ))}
    </text>
  );
}

/** A label drawn on the map, centred on (x, y): a relationship's type, or a shortened name in full. */
function MapTooltip({ x, y, text, bounds, testId = 'map-tooltip' }: { x: number; y: number; text: string; bounds?: { left: number; right: number }; testId?: string }) {
  const width = Math.max(48, text.length * 6.6 + 16);
  const height = 24;
  // Kept inside the drawing's width, so a long name is not cut at the edge of a phone's map.
  const centre = bounds ? Math.min(Math.max(x, bounds.left + width / 2 + 2), bounds.right - width / 2 - 2) : x;
  return (
    <g transform={`translate(${centre} ${y})`} pointerEvents="none" data-testid={testId} aria-hidden="true">
      <rect x={-width / 2} y={-height / 2} width={width} height={height} rx={6} className={classes.tooltipBox} />
      <text className={classes.tooltipText} textAnchor="middle" dominantBaseline="central">
        {text}
      </text>
    </g>
  );
}
