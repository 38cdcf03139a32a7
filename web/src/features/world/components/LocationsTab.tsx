/**
 * The Locations tab (spec 001 §2): a search box and the series' places, as cards or as a tree of
 * places inside places (docs/decisions/0021-places-inside-places.md) with the chosen place beside
 * it. The view is remembered on this device. A search shows the matching places and, in the tree,
 * every place they are inside. Moves are written through the mutators like any edit: offline too,
 * refused at once when they would put a place inside itself.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Group, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconLayoutGrid, IconListTree, IconMapSearch, IconPlus } from '@tabler/icons-react';
import type { Location } from '@chronicler/schema';
import { CARD_COLUMNS, EmptyPanel, LoadingGrid, SearchField, ShowMore, usePagedSearch } from '@/components/SeriesListScreen';
import { LOCATION_TOASTS } from '@/lib/copy/toasts';
import { readLocal, writeLocal } from '@/lib/storage';
import { useSync } from '@/lib/sync';
import { toastOutcome } from '@/lib/toast';
import { visibleLocations } from '../model/locations';
import { type LocationTree, breadcrumbsOf, descendantCount, placesWithChildren, visibleTreeRows } from '../model/place-tree';
import { LocationCard } from './LocationCard';
import { MoveLocationDialog } from './MoveLocationDialog';
import { PlaceTree } from './PlaceTree';
import classes from '../world.module.css';

/** Cards (and tree rows) shown at first and added by "Show more" (a large world stays fast). */
export const PAGE_SIZE = 48;

export const LOCATIONS_VIEW_KEY = 'chronicler:world-locations-view';
type View = 'cards' | 'tree';

interface LocationsTabProps {
  seriesId: string | null;
  seriesTitle: string | undefined;
  /** undefined while they load. */
  locations: Location[] | undefined;
  /** The same places as a tree (built once by the page, which its dialogs share). */
  tree: LocationTree;
  canEdit: boolean;
  /** New Element is locked (the plan's limit). */
  createLocked: boolean;
  /** The plan's limit notice, beside the search (null when it does not apply). */
  limitNotice: ReactNode;
  /** Opens the new-location dialog, inside `parentId` when given. */
  onCreate: (parentId: string | null) => void;
  /** View Details / edit. */
  onOpen: (location: Location) => void;
  onDelete: (location: Location) => void;
}

export function LocationsTab({ seriesId, seriesTitle, locations, tree, canEdit, createLocked, limitNotice, onCreate, onOpen, onDelete }: LocationsTabProps) {
  const { mutators } = useSync();
  const { search, setSearch, deferredSearch, shown, showMore } = usePagedSearch(PAGE_SIZE, seriesId ?? '');
  const [view, setView] = useState<View>(() => (readLocal(LOCATIONS_VIEW_KEY) === 'tree' ? 'tree' : 'cards'));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [activeId, setActiveId] = useState<string | null>(null);
  const [moving, setMoving] = useState<Location | null>(null);

  // Another series: nothing of the last one stays open or chosen.
  useEffect(() => {
    setExpanded(new Set());
    setActiveId(null);
  }, [seriesId]);

  const all = useMemo(() => locations ?? [], [locations]);
  const cards = useMemo(() => (view === 'cards' ? visibleLocations(all, deferredSearch) : []), [view, all, deferredSearch]);
  const rows = useMemo(() => (view === 'tree' ? visibleTreeRows(tree, expanded, deferredSearch) : []), [view, tree, expanded, deferredSearch]);

  const chooseView = (next: string) => {
    const value: View = next === 'tree' ? 'tree' : 'cards';
    setView(value);
    writeLocal(LOCATIONS_VIEW_KEY, value);
  };

  const toggle = useCallback((id: string, open: boolean) => {
    setExpanded((now) => {
      const next = new Set(now);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const expandAll = useCallback((ids: readonly string[]) => setExpanded((now) => new Set([...now, ...ids])), []);

  const move = useCallback(
    (location: Location, parentId: string | null) =>
      toastOutcome(() => mutators.locations.update(location.id, { parentId }), LOCATION_TOASTS.locationUpdated, LOCATION_TOASTS.locationUpdateFailed).then((done) => {
        // The moved place stays in sight: the places it is now inside open, and it is the chosen one.
        if (done) {
          const path = parentId === null ? [] : [...breadcrumbsOf(tree, parentId).map((a) => a.id), parentId];
          setExpanded((now) => new Set([...now, ...path]));
          setActiveId(location.id);
        }
        return done;
      }),
    [mutators, tree],
  );

  const addInside = useCallback(
    (location: Location) => {
      setExpanded((now) => new Set([...now, location.id]));
      onCreate(location.id);
    },
    [onCreate],
  );

  const cardProps = (location: Location) => ({
    location,
    onView: onOpen,
    onEdit: onOpen,
    onDelete,
    readOnly: !canEdit,
    ancestors: breadcrumbsOf(tree, location.id),
    insideCount: descendantCount(tree, location.id),
    looped: tree.tree.looped.has(location.id),
    ...(canEdit ? { onMove: setMoving, onAddInside: createLocked ? undefined : addInside } : {}),
  });

  const nothingShown = view === 'cards' ? cards.length === 0 : rows.length === 0;
  const shownRows = rows.slice(0, shown);
  const active = shownRows.find((r) => r.place.id === activeId) ?? shownRows[0];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="wrap" w={{ base: '100%', sm: 'auto' }}>
          <SearchField label="Search locations" placeholder="Search locations..." value={search} onChange={setSearch} w={{ base: '100%', sm: 340 }} />
          <SegmentedControl
            aria-label="Show locations as"
            value={view}
            onChange={chooseView}
            radius="md"
            data={[
              { value: 'cards', label: <ViewLabel icon={<IconLayoutGrid size={16} aria-hidden />} text="Cards" /> },
              { value: 'tree', label: <ViewLabel icon={<IconListTree size={16} aria-hidden />} text="Tree" /> },
            ]}
          />
        </Group>
        {limitNotice}
      </Group>

      {locations === undefined ? (
        <LoadingGrid label="Loading locations" height={190} />
      ) : nothingShown ? (
        <EmptyPanel
          padding={40}
          icon={<IconMapSearch size={30} stroke={1.5} />}
          title="No Locations Found"
          description={
            all.length === 0
              ? `${seriesTitle ?? 'This series'} has no locations yet. Add the cities, forests and ruins your story travels through.`
              : `No location matches “${deferredSearch.trim()}”.`
          }
          actions={
            all.length === 0 ? (
              canEdit ? (
                <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => onCreate(null)} disabled={createLocked}>
                  New Element
                </Button>
              ) : null
            ) : (
              <Button variant="default" onClick={() => setSearch('')}>
                Show all locations
              </Button>
            )
          }
        />
      ) : view === 'cards' ? (
        <>
          <SimpleGrid cols={CARD_COLUMNS} spacing="md" role="list" aria-label="Locations">
            {cards.slice(0, shown).map((location) => (
              <div role="listitem" key={location.id} className={classes.cell}>
                <LocationCard {...cardProps(location)} />
              </div>
            ))}
          </SimpleGrid>
          <ShowMore hidden={cards.length - shown} onClick={showMore} />
        </>
      ) : (
        <div className={classes.treeLayout}>
          <Stack gap="xs" miw={0}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="xs" c="dimmed" id="place-tree-help" visibleFrom="sm">
                Arrow keys move and open; Enter shows details.
              </Text>
              <Group gap={4} ml="auto">
                <Button variant="subtle" size="compact-xs" onClick={() => setExpanded(new Set(placesWithChildren(tree)))}>
                  Expand all
                </Button>
                <Button variant="subtle" size="compact-xs" onClick={() => setExpanded(new Set())}>
                  Collapse all
                </Button>
              </Group>
            </Group>
            <PlaceTree rows={shownRows} activeId={active?.place.id ?? null} onActiveChange={setActiveId} onToggle={toggle} onExpandAll={expandAll} onOpen={onOpen} describedBy="place-tree-help" />
            <ShowMore hidden={rows.length - shown} onClick={showMore} />
          </Stack>
          <section aria-label="Chosen place" className={classes.treeDetails}>
            {active ? <LocationCard {...cardProps(active.place)} /> : null}
          </section>
        </div>
      )}

      <MoveLocationDialog location={moving} tree={tree} onClose={() => setMoving(null)} onMove={move} />
    </Stack>
  );
}

function ViewLabel({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Group gap={6} wrap="nowrap" justify="center">
      {icon}
      <span>{text}</span>
    </Group>
  );
}
