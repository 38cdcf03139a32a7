import { ActionIcon, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconDots, IconExternalLink, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Series } from '@chronicler/schema';
import { Menu } from '@/lib/first-load';
import { PictureImage } from '@/components/pictures/PictureImage';
import { useSeriesProgress } from '@/lib/useSeriesProgress';
import classes from './SeriesCard.module.css';
import { ProgressLine } from './ProgressLine';

interface SeriesCardProps {
  series: Series;
  selected: boolean;
  /** The author may delete it (the owner). */
  canDelete: boolean;
  onSelect: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** A series card (001 §2): the cover's thumbnail, title, 'Book X of Y', description and progress percent. */
export function SeriesCard({ series, selected, canDelete, onSelect, onEdit, onDelete }: SeriesCardProps) {
  const percent = useSeriesProgress(series);
  return (
    <Card withBorder radius="md" padding="md" className={classes.card} data-selected={selected} data-testid="series-card" onClick={onSelect}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <UnstyledButton
          className={classes.select}
          aria-pressed={selected}
          onClick={(e) => {
            e.stopPropagation();
            onSelect();
          }}
        >
          <Group gap="sm" wrap="nowrap" align="flex-start">
            {series.coverImage ? (
              <PictureImage value={series.coverImage} seriesId={series.id} variant="thumb" alt="" className={classes.cover} />
            ) : null}
            <Stack gap={2}>
              <Text fw={700} size="lg" lineClamp={2}>
                {series.title}
              </Text>
              <Text size="sm" c="dimmed">
                Book {series.currentBook} of {series.totalBooks}
              </Text>
            </Stack>
          </Group>
        </UnstyledButton>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${series.title}`} onClick={(e) => e.stopPropagation()}>
              <IconDots size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
            <Menu.Item leftSection={<IconExternalLink size={14} aria-hidden />} component={Link} to={`/series/${series.id}`}>
              Open
            </Menu.Item>
            <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={onEdit}>
              Edit Series
            </Menu.Item>
            {canDelete ? (
              <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete}>
                Delete Series
              </Menu.Item>
            ) : null}
          </Menu.Dropdown>
        </Menu>
      </Group>
      {series.description ? (
        <Text size="sm" mt="xs" lineClamp={3}>
          {series.description}
        </Text>
      ) : (
        <Text size="sm" mt="xs" c="dimmed" fs="italic">
          No description
        </Text>
      )}
      <ProgressLine title={series.title} percent={percent} mt="md" />
    </Card>
  );
}
