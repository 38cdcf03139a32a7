/**
 * The World Building page (spec 001 §2): a series selector and 'New Element' (which creates a
 * location); the tabs Locations, Cultures, Magic Systems, Flora & Fauna, Technology and Politics.
 * The Locations tab has a search box and cards with View Details (edit), edit and delete (with
 * confirmation), or the tree of places inside places (components/LocationsTab.tsx,
 * docs/decisions/0021-places-inside-places.md). The other tabs hold world entries of their category, loaded with the tab
 * (entries/WorldEntriesTab.tsx, docs/decisions/0020-world-entries.md); the open tab is in the
 * address (`?tab=`), so a link can open one.
 *
 * Reads come live from the local database and writes go through the mutators
 * (docs/architecture.md#the-data-loop), so the page works offline and the sync engine sends the
 * changes. Locations are for every plan; the Apprentice limit of locations per series is shown
 * before it is reached and locks New Element at the limit. The server enforces the same table; a
 * refused write is reverted by the engine and reported by the sync provider.
 */
import './styles';
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge, Button, Skeleton, Tabs } from '@mantine/core';
import { IconBuildingBank, IconCpu, IconLeaf, IconLock, IconMapPin, IconPlus, IconSparkles, IconUsersGroup } from '@tabler/icons-react';
import { MESSAGES, type Location, type WorldCategory } from '@chronicler/schema';
import { LOCATION_TOASTS, withError } from '@/lib/copy/toasts';
import { NoSeriesPanel, OfflineNote, SeriesListHeader } from '@/components/SeriesListScreen';
import { useSession } from '@/lib/session';
import { mayCreateInSeries, planLimitState } from '@/lib/limits';
import { saveChanges, toast, toastOutcome } from '@/lib/toast';
import { useSync } from '@/lib/sync';
import { releasePictures } from '@chronicler/sync-client';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { ReadOnlyNotice } from '@/components/ReadOnlyNotice';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { LocationDialog } from './components/LocationDialog';
import { LocationLimitNotice } from './components/LocationLimitNotice';
import { LocationsTab } from './components/LocationsTab';
import { ScreenErrorBoundary } from '@/components/ScreenErrorBoundary';
import { useWorldData } from './hooks/useWorldData';
import { createBodyFromForm, updateBodyFromForm, type LocationFormValues } from './model/location-form';
import { deleteConsequence, locationTree } from './model/place-tree';
import classes from './world.module.css';

export const WORLD_TABS = [
  { value: 'locations', label: 'Locations', icon: IconMapPin, category: null },
  { value: 'cultures', label: 'Cultures', icon: IconUsersGroup, category: 'culture' },
  { value: 'magic', label: 'Magic Systems', icon: IconSparkles, category: 'magicSystem' },
  { value: 'flora', label: 'Flora & Fauna', icon: IconLeaf, category: 'floraFauna' },
  { value: 'technology', label: 'Technology', icon: IconCpu, category: 'technology' },
  { value: 'politics', label: 'Politics', icon: IconBuildingBank, category: 'politics' },
] as const satisfies readonly { value: string; label: string; icon: unknown; category: WorldCategory | null }[];

// The world entry tabs come with their first opening (docs/web.md#first-load).
const WorldEntriesTab = lazy(() => import('./entries/WorldEntriesTab'));

type Dialog = { kind: 'none' } | { kind: 'create'; parentId: string | null } | { kind: 'edit'; id: string } | { kind: 'delete'; location: Location };

export function WorldScreen() {
  return (
    <ScreenErrorBoundary title="Your world could not be loaded">
      <WorldPage />
    </ScreenErrorBoundary>
  );
}

function WorldPage() {
  const { db, mutators, userId } = useSync();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const { series, seriesId, selectSeries, current, locations, books } = useWorldData(db);

  const [params, setParams] = useSearchParams();
  const tab = WORLD_TABS.some((t) => t.value === params.get('tab')) ? params.get('tab')! : 'locations';
  const setTab = useCallback((value: string) => setParams(value === 'locations' ? {} : { tab: value }, { replace: true }), [setParams]);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const close = useCallback(() => setDialog({ kind: 'none' }), []);
  // A link from a place's dialog to a world entry opens another tab: the place's dialog closes.
  useEffect(() => {
    if (tab !== 'locations') setDialog((d) => (d.kind === 'none' ? d : { kind: 'none' }));
  }, [tab]);

  // The series owner's plan governs a series on the server; for the author's own series that is
  // this plan. A shared series follows its owner's plan, which this device does not know.
  const owned = current ? current.ownerId === userId : true;
  const limit = planLimitState(plan, 'locationsPerSeries', locations?.length ?? 0);
  const limitLocked = owned && limit.locked;
  // A viewer of a shared series reads its world: no creating, editing or deleting (ReadOnlyNotice says why).
  const { canEdit } = useSeriesRole(seriesId);

  const all = useMemo(() => locations ?? [], [locations]);
  // Places inside places (docs/decisions/0021-places-inside-places.md): the dialogs' breadcrumbs and choices.
  const tree = useMemo(() => locationTree(all), [all]);
  const byId = tree.byId;
  const editing = dialog.kind === 'edit' ? (byId.get(dialog.id) ?? null) : null;

  const openCreate = useCallback(
    (parentId: string | null = null) => {
      if (!mayCreateInSeries(seriesId, limitLocked, limit)) return;
      setTab('locations');
      setDialog({ kind: 'create', parentId });
    },
    [seriesId, limitLocked, limit, setTab],
  );

  const openEdit = useCallback((l: Location) => setDialog({ kind: 'edit', id: l.id }), []);
  const askDelete = useCallback((l: Location) => setDialog({ kind: 'delete', location: l }), []);

  const save = async (values: LocationFormValues): Promise<boolean> => {
    if (dialog.kind === 'edit') {
      if (!editing) return true;
      return saveChanges(
        updateBodyFromForm(editing, values),
        (body) => mutators.locations.update(editing.id, body),
        LOCATION_TOASTS.locationUpdated,
        LOCATION_TOASTS.locationUpdateFailed,
      );
    }
    if (!seriesId) {
      toast.show(withError(LOCATION_TOASTS.locationAddFailed, MESSAGES.location.seriesRequired));
      return false;
    }
    if (limitLocked) {
      toast.show(withError(LOCATION_TOASTS.locationAddFailed, limit.message));
      return false;
    }
    return toastOutcome(
      () => mutators.locations.create(createBodyFromForm(seriesId, values)),
      LOCATION_TOASTS.locationAdded,
      LOCATION_TOASTS.locationAddFailed,
    );
  };

  const remove = async (location: Location) => {
    await toastOutcome(() => mutators.locations.delete(location.id), LOCATION_TOASTS.locationDeleted, LOCATION_TOASTS.locationDeleteFailed);
    // Its picture leaves the device with it (docs/decisions/0023-pictures-on-the-device.md).
    void releasePictures(db, [location.image]).catch(() => undefined);
    close();
  };

  const noSeries = series !== undefined && series.length === 0;

  return (
    <>
      <SeriesListHeader
        title="World Building"
        subtitle="Shape the places, peoples and rules of your world"
        picker={{ series, seriesId, onSelect: selectSeries, 'data-testid': 'world-series-select' }}
      >
        {canEdit ? (
          <Button
            leftSection={limitLocked ? <IconLock size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
            onClick={() => openCreate()}
            disabled={!seriesId || limitLocked || locations === undefined}
            title={limitLocked ? limit.message : undefined}
          >
            New Element
          </Button>
        ) : null}
      </SeriesListHeader>

      <OfflineNote mb="md" />
      <ReadOnlyNotice seriesId={seriesId} />

      {noSeries ? (
        <NoSeriesPanel description="Create a series first; its world and locations live here." />
      ) : (
        <Tabs value={tab} onChange={(v) => v && setTab(v)} keepMounted={false} variant="outline" radius="md">
          <Tabs.List className={classes.tabList}>
            {WORLD_TABS.map(({ value, label, icon: Icon }) => (
              <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} aria-hidden />}>
                {label}
                {value === 'locations' && locations !== undefined ? (
                  <Badge size="xs" variant="light" radius="sm" ml={6} aria-label={`${locations.length} locations`}>
                    {locations.length}
                  </Badge>
                ) : null}
              </Tabs.Tab>
            ))}
          </Tabs.List>

          <Tabs.Panel value="locations" pt="lg">
            <LocationsTab
              seriesId={seriesId}
              seriesTitle={current?.title}
              locations={locations}
              tree={tree}
              canEdit={canEdit}
              createLocked={limitLocked}
              limitNotice={owned && locations !== undefined ? <LocationLimitNotice state={limit} /> : null}
              onCreate={openCreate}
              onOpen={openEdit}
              onDelete={askDelete}
            />
          </Tabs.Panel>

          {WORLD_TABS.map(({ value, category }) =>
            category === null ? null : (
              <Tabs.Panel key={value} value={value} pt="lg">
                {seriesId ? (
                  <Suspense fallback={<Skeleton height={160} radius="md" aria-label="Loading" />}>
                    <WorldEntriesTab key={seriesId} category={category} seriesId={seriesId} seriesTitle={current?.title} owned={owned} canEdit={canEdit} />
                  </Suspense>
                ) : null}
              </Tabs.Panel>
            ),
          )}
        </Tabs>
      )}

      <LocationDialog
        opened={dialog.kind === 'create' || (dialog.kind === 'edit' && editing !== null)}
        location={editing}
        books={books}
        seriesTitle={current?.title}
        onClose={close}
        onSubmit={save}
        readOnly={!canEdit && dialog.kind === 'edit'}
        seriesId={seriesId}
        picturesGated={owned}
        tree={tree}
        initialParentId={dialog.kind === 'create' ? dialog.parentId : null}
        onOpenPlace={openEdit}
      />
      <ConfirmDeleteDialog
        opened={dialog.kind === 'delete'}
        title="Delete location"
        message={MESSAGES.confirm.deleteLocation}
        details={dialog.kind === 'delete' ? deleteConsequence(tree, dialog.location) : ''}
        onCancel={close}
        onConfirm={() => (dialog.kind === 'delete' ? remove(dialog.location) : undefined)}
      />
    </>
  );
}
