import { memo, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import {
  IconBeach,
  IconBook,
  IconBuildingArch,
  IconBuildingCastle,
  IconBuildingCommunity,
  IconArrowsMove,
  IconBuildingSkyscraper,
  IconCactus,
  IconDoorEnter,
  IconHome,
  IconMapPin,
  IconMapPins,
  IconMountain,
  IconPencil,
  IconPlus,
  IconRipple,
  IconTrash,
  IconTrees,
  IconWaveSine,
} from '@tabler/icons-react';
import { PLACE_MESSAGES, type Location } from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';
import { usePictureSource } from '@/components/pictures/pictureSource';
import { appearanceText, importanceLabel, locationTypeLabel, type LocationType } from '../model/locations';
import classes from '../world.module.css';

const TYPE_ICONS: Record<LocationType, (props: { size: number; stroke: number }) => ReactNode> = {
  city: (p) => <IconBuildingSkyscraper {...p} />,
  town: (p) => <IconBuildingCommunity {...p} />,
  village: (p) => <IconHome {...p} />,
  castle: (p) => <IconBuildingCastle {...p} />,
  forest: (p) => <IconTrees {...p} />,
  mountain: (p) => <IconMountain {...p} />,
  ocean: (p) => <IconRipple {...p} />,
  river: (p) => <IconWaveSine {...p} />,
  desert: (p) => <IconCactus {...p} />,
  island: (p) => <IconBeach {...p} />,
  cave: (p) => <IconDoorEnter {...p} />,
  ruins: (p) => <IconBuildingArch {...p} />,
  general: (p) => <IconMapPin {...p} />,
  other: (p) => <IconMapPin {...p} />,
};

export function LocationTypeIcon({ type, size = 18 }: { type: string; size?: number }) {
  const icon = TYPE_ICONS[type as LocationType] ?? TYPE_ICONS.other;
  return <>{icon({ size, stroke: 1.75 })}</>;
}

const IMPORTANCE_VARIANT: Record<string, { variant: string; color?: string }> = {
  main: { variant: 'filled' },
  secondary: { variant: 'light' },
  minor: { variant: 'outline', color: 'gray' },
};

interface LocationCardProps {
  location: Location;
  onView: (location: Location) => void;
  onEdit: (location: Location) => void;
  onDelete: (location: Location) => void;
  /** A viewer of a shared series: View Details only. */
  readOnly?: boolean;
  /** The places it is inside, from the top level down (docs/decisions/0021-places-inside-places.md). */
  ancestors?: readonly Location[];
  /** How many places are inside it, at any depth. */
  insideCount?: number;
  /** Moves it into another place (or to the top level). */
  onMove?: (location: Location) => void;
  /** Adds a place inside it. */
  onAddInside?: (location: Location) => void;
  /** Drawn at the top level because moves made on two devices put it inside itself. */
  looped?: boolean;
}

const NO_ANCESTORS: readonly Location[] = [];

/**
 * One location (001 §2): type, importance, description, book appearances, image; View Details, edit,
 * delete. And where it is: the places it is inside, how many are inside it, move, add a place inside.
 */
export const LocationCard = memo(function LocationCard({
  location,
  onView,
  onEdit,
  onDelete,
  readOnly = false,
  ancestors = NO_ANCESTORS,
  insideCount = 0,
  onMove,
  onAddInside,
  looped = false,
}: LocationCardProps) {
  const importance = IMPORTANCE_VARIANT[location.importance] ?? IMPORTANCE_VARIANT.secondary!;
  // A chosen picture's thumbnail from the device, or a URL as before (docs/decisions/0023-pictures-on-the-device.md).
  const { src } = usePictureSource(location.image, location.seriesId, 'thumb');
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = src !== null && src !== failedSrc;

  return (
    <Card withBorder radius="md" padding="md" shadow="xs" className={classes.card} data-testid="location-card" component="article" aria-label={location.name}>
      {showImage ? (
        <Card.Section className={classes.imageSection}>
          <img
            src={src!}
            alt=""
            loading="lazy"
            decoding="async"
            referrerPolicy="no-referrer"
            className={classes.image}
            onError={() => setFailedSrc(src)}
          />
        </Card.Section>
      ) : null}
      <Stack gap="xs" className={classes.cardBody}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Group gap={8} wrap="nowrap" miw={0}>
            <span className={classes.typeIcon} aria-hidden>
              <LocationTypeIcon type={location.locationType} />
            </span>
            <Stack gap={0} miw={0}>
              <Title order={3} fz="md" lineClamp={2} className={classes.name}>
                {location.name}
              </Title>
              <Text size="xs" c="dimmed">
                {locationTypeLabel(location.locationType)}
              </Text>
            </Stack>
          </Group>
          <Badge radius="sm" size="sm" variant={importance.variant} color={importance.color} style={{ flex: 'none' }}>
            {importanceLabel(location.importance)}
          </Badge>
        </Group>

        {ancestors.length > 0 ? (
          <Text size="xs" c="dimmed" data-testid="location-path" className={classes.name}>
            In {ancestors.map((a) => a.name).join(' › ')}
          </Text>
        ) : null}
        {looped ? (
          <Text size="xs" c="orange" role="note">
            {PLACE_MESSAGES.loops}
          </Text>
        ) : null}

        {location.description ? (
          <Text size="sm" lineClamp={3} className={classes.description}>
            {location.description}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" fs="italic">
            No description yet
          </Text>
        )}

        <Group gap={6} wrap="nowrap" c="dimmed">
          <IconBook size={14} aria-hidden />
          <Text size="xs" c="dimmed" data-testid="location-appearances">
            {appearanceText(location.bookAppearances)}
          </Text>
        </Group>
        {insideCount > 0 ? (
          <Group gap={6} wrap="nowrap" c="dimmed">
            <IconMapPins size={14} aria-hidden />
            <Text size="xs" c="dimmed" data-testid="location-inside-count">
              {insideCount === 1 ? '1 place inside' : `${insideCount} places inside`}
            </Text>
          </Group>
        ) : null}
      </Stack>

      <Group justify="space-between" mt="md" gap="xs" wrap="nowrap">
        <Button variant="light" size="xs" radius="md" onClick={() => onView(location)} aria-label={`View details of ${location.name}`}>
          View Details
        </Button>
        {readOnly ? null : (
        <Group gap={4} wrap="nowrap">
          {onAddInside ? (
            <DeferredTooltip label="Add a place inside" withArrow openDelay={400}>
              <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => onAddInside(location)} aria-label={`Add a place inside ${location.name}`}>
                <IconPlus size={18} aria-hidden />
              </ActionIcon>
            </DeferredTooltip>
          ) : null}
          {onMove ? (
            <DeferredTooltip label="Move" withArrow openDelay={400}>
              <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => onMove(location)} aria-label={`Move ${location.name}`}>
                <IconArrowsMove size={18} aria-hidden />
              </ActionIcon>
            </DeferredTooltip>
          ) : null}
          <DeferredTooltip label="Edit" withArrow openDelay={400}>
            <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => onEdit(location)} aria-label={`Edit ${location.name}`}>
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
          <DeferredTooltip label="Delete" withArrow openDelay={400}>
            <ActionIcon variant="subtle" color="red" size="lg" onClick={() => onDelete(location)} aria-label={`Delete ${location.name}`}>
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
        </Group>
        )}
      </Group>
    </Card>
  );
});
