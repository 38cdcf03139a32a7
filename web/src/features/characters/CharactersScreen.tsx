/**
 * The Characters page (spec 001 §2 "Characters page"): series selector, name search, New Character,
 * the Main / Supporting / Minor tabs of character cards, and the Character Relationship Map.
 *
 * Reads come from the local database (live), writes go through the mutators
 * (docs/architecture.md#the-data-loop), so the page works offline; the sync engine sends the
 * changes. Plan limits and gates come from the shared plan table: the author is warned before the
 * characters-per-series limit, and the map is locked without relationship mapping. The server
 * enforces the same table; a refused write is reverted by the engine and reported by the sync
 * provider.
 */
import './styles';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Paper, SimpleGrid, Stack, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconLock, IconPlus, IconUserSearch } from '@tabler/icons-react';
import {
  MESSAGES,
  hasFeature,
  type Character,
  type CharacterRelationship,
} from '@chronicler/schema';
import { CHARACTER_TOASTS, VALIDATION_TOASTS, withError } from '@/lib/copy/toasts';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { FeatureGate } from '@/components/FeatureGate';
import { ReadOnlyNotice } from '@/components/ReadOnlyNotice';
import { ScreenErrorBoundary } from '@/components/ScreenErrorBoundary';
import {
  CARD_COLUMNS,
  EmptyPanel,
  LoadingGrid,
  NoSeriesPanel,
  SearchField,
  SeriesListHeader,
  ShowMore,
  usePagedSearch,
} from '@/components/SeriesListScreen';
import { useSession } from '@/lib/session';
import { mayCreateInSeries, planLimitState } from '@/lib/limits';
import { saveChanges, toast, toastOutcome } from '@/lib/toast';
import { useSync } from '@/lib/sync';
import { releasePictures } from '@chronicler/sync-client';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { AddRelationshipDialog } from './components/AddRelationshipDialog';
import { CharacterCard } from './components/CharacterCard';
import { CharacterDetailDialog } from './components/CharacterDetailDialog';
import { CharacterDialog } from './components/CharacterDialog';
import classes from './characters.module.css';
import { CharacterLimitNotice, LIMIT_NOTICE_ID } from './components/CharacterLimitNotice';
import { EditRelationshipDialog } from './components/EditRelationshipDialog';
import { RelationshipMap } from './components/RelationshipMap';
import { useCharactersData } from './hooks/useCharactersData';
import { createBodyFromForm, updateBodyFromForm, type CharacterFormValues } from './model/character-form';
import { CHARACTER_TABS, TAB_LABELS, filterCharacters, tabCounts, type CharacterTab } from './model/filters';
import type { GenerateImageOptions } from './model/image-generation';
import type { RelationshipType } from './model/map-geometry';
import { checkRelationship, type RelationshipFormState } from './model/relationship-form';
import { RELATIONSHIP_EXTRA_TOASTS } from './model/toasts';

/** Cards shown at first and added by "Show more" (long casts stay fast). */
export const PAGE_SIZE = 60;

type Dialog =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'edit'; id: string }
  | { kind: 'details'; id: string }
  | { kind: 'delete'; character: Character }
  | { kind: 'addRelationship'; sourceId: string | null }
  | { kind: 'editRelationship'; relationship: CharacterRelationship };

export interface CharactersScreenProps {
  /** Test seam for the simulated AI image. */
  imageOptions?: GenerateImageOptions;
}

export function CharactersScreen(props: CharactersScreenProps) {
  return (
    <ScreenErrorBoundary title="Your characters could not be loaded">
      <CharactersPage {...props} />
    </ScreenErrorBoundary>
  );
}

function CharactersPage({ imageOptions }: CharactersScreenProps) {
  const { db, mutators, userId } = useSync();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const data = useCharactersData(db);
  const { series, seriesId, current, characters, relationships, books } = data;

  const [tab, setTab] = useState<CharacterTab>('main');
  const { search, setSearch, deferredSearch, shown, showMore } = usePagedSearch(PAGE_SIZE, `${tab}:${seriesId ?? ''}`);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const close = useCallback(() => setDialog({ kind: 'none' }), []);

  // Limits and gates follow the series owner's plan on the server; for the author's own series that
  // is this plan. A shared series is governed by its owner's plan, which this device does not know.
  const owned = current ? current.ownerId === userId : true;
  const limit = planLimitState(plan, 'charactersPerSeries', characters?.length ?? 0);
  const limitLocked = owned && limit.locked;
  const canRelate = !owned || hasFeature(plan, 'relationshipMapping');
  // A viewer of a shared series reads the cast: every writing control is withdrawn (ReadOnlyNotice says why).
  const { canEdit } = useSeriesRole(seriesId);

  const all = useMemo(() => characters ?? [], [characters]);
  const visible = useMemo(() => filterCharacters(all, tab, deferredSearch), [all, tab, deferredSearch]);
  const counts = useMemo(() => tabCounts(all, deferredSearch), [all, deferredSearch]);
  const byId = useMemo(() => new Map(all.map((c) => [c.id, c])), [all]);

  const openCreate = () => {
    if (mayCreateInSeries(seriesId, limitLocked, limit)) setDialog({ kind: 'create' });
  };

  const view = useCallback((c: Character) => setDialog(canEdit ? { kind: 'edit', id: c.id } : { kind: 'details', id: c.id }), [canEdit]);
  const askDelete = useCallback((c: Character) => setDialog({ kind: 'delete', character: c }), []);
  const toggleMain = useCallback(
    async (c: Character) => {
      await toastOutcome(
        () => mutators.characters.update(c.id, { isProtagonist: !c.isProtagonist }),
        CHARACTER_TOASTS.characterUpdated,
        CHARACTER_TOASTS.characterUpdateFailed,
      );
    },
    [mutators],
  );
  const onToggleMain = useCallback((c: Character) => void toggleMain(c), [toggleMain]);

  const editing = dialog.kind === 'edit' ? (byId.get(dialog.id) ?? null) : null;

  const saveCharacter = async (values: CharacterFormValues): Promise<boolean> => {
    if (dialog.kind === 'edit') {
      if (!editing) return true;
      return saveChanges(
        updateBodyFromForm(editing, values),
        (body) => mutators.characters.update(editing.id, body),
        CHARACTER_TOASTS.characterUpdated,
        CHARACTER_TOASTS.characterUpdateFailed,
      );
    }
    if (!seriesId) {
      toast.show(VALIDATION_TOASTS.noSeriesSelected);
      return false;
    }
    if (limitLocked) {
      toast.show(withError(CHARACTER_TOASTS.characterAddFailed, limit.message));
      return false;
    }
    return toastOutcome(
      () => mutators.characters.create(createBodyFromForm(seriesId, values)),
      CHARACTER_TOASTS.characterAdded,
      CHARACTER_TOASTS.characterAddFailed,
    );
  };

  const deleteCharacter = async (c: Character) => {
    close();
    await toastOutcome(() => mutators.characters.delete(c.id), CHARACTER_TOASTS.characterDeleted, CHARACTER_TOASTS.characterDeleteFailed);
    // Its portrait leaves the device with it (docs/decisions/0023-pictures-on-the-device.md).
    void releasePictures(db, [c.avatarUrl]).catch(() => undefined);
  };

  const addRelationship = async (state: RelationshipFormState): Promise<boolean> => {
    const check = checkRelationship(state);
    if (!check.ok) {
      if (check.reason === 'self') toast.show(VALIDATION_TOASTS.invalidRelationship);
      return false;
    }
    return toastOutcome(
      () =>
        mutators.relationships.create({
          sourceCharacterId: state.sourceCharacterId!,
          targetCharacterId: state.targetCharacterId!,
          relationshipType: state.relationshipType,
          description: state.description.trim(),
        }),
      CHARACTER_TOASTS.relationshipAdded,
      CHARACTER_TOASTS.relationshipAddFailed,
    );
  };

  const saveRelationship = async (r: CharacterRelationship, change: { relationshipType: RelationshipType; description: string }) => {
    const body: { relationshipType?: RelationshipType; description?: string } = {};
    if (change.relationshipType !== r.relationshipType) body.relationshipType = change.relationshipType;
    if (change.description.trim() !== r.description) body.description = change.description.trim();
    return saveChanges(
      body,
      (b) => mutators.relationships.update(r.id, b),
      RELATIONSHIP_EXTRA_TOASTS.relationshipUpdated,
      RELATIONSHIP_EXTRA_TOASTS.relationshipUpdateFailed,
    );
  };

  const deleteRelationship = async (r: CharacterRelationship) => {
    return toastOutcome(
      () => mutators.relationships.delete(r.id),
      RELATIONSHIP_EXTRA_TOASTS.relationshipDeleted,
      RELATIONSHIP_EXTRA_TOASTS.relationshipDeleteFailed,
    );
  };

  const onNodeClick = useCallback((c: Character) => setDialog({ kind: 'details', id: c.id }), []);
  const onLinkClick = useCallback((r: CharacterRelationship) => canEdit && setDialog({ kind: 'editRelationship', relationship: r }), [canEdit]);
  const onAddRelationship = useCallback(() => setDialog({ kind: 'addRelationship', sourceId: null }), []);

  const header = (
    <SeriesListHeader
      title="Characters"
      subtitle="Keep every character of your series in view"
      offlineBadge
      picker={{
        series,
        seriesId,
        onSelect: data.selectSeries,
        loadingPlaceholder: 'Select series',
        emptyPlaceholder: 'No series yet',
        width: 220,
        checkIconPosition: 'left',
      }}
    >
      <SearchField label="Search characters" placeholder="Search by name" value={search} onChange={setSearch} w={{ base: '100%', xs: 200 }} />
      {canEdit ? (
      <Button
            leftSection={limitLocked ? <IconLock size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
            onClick={openCreate}
            loading={series === undefined}
            data-locked={limitLocked ? 'true' : undefined}
            aria-describedby={limit.warn ? LIMIT_NOTICE_ID : undefined}
            variant={limitLocked ? 'light' : 'filled'}
            radius="xl"
          >
        New Character
      </Button>
      ) : null}
    </SeriesListHeader>
  );

  let body;
  if (series === undefined) {
    body = <LoadingCards />;
  } else if (!seriesId) {
    body = (
      <NoSeriesPanel
        flat
        description="Characters belong to a series. Create a series first, then bring its cast to life here."
        action={
          <Button component={Link} to="/series" radius="xl">
            Go to Series
          </Button>
        }
      />
    );
  } else {
    // A shared series follows its owner's plan, which this device does not know: not gated here.
    const map = (
      <RelationshipMap
        characters={all}
        relationships={relationships ?? []}
        onNodeClick={onNodeClick}
        onLinkClick={onLinkClick}
        onAddRelationship={canEdit ? onAddRelationship : undefined}
      />
    );
    body = (
      <Stack gap="xl">
        <Tabs value={tab} onChange={(v) => v && setTab(v as CharacterTab)} keepMounted={false}>
          <Tabs.List mb="lg" className={classes.tabsList}>
            {CHARACTER_TABS.map((t) => (
              <Tabs.Tab
                key={t}
                value={t}
                rightSection={
                  characters ? (
                    <Badge size="sm" variant="light" circle={counts[t] < 10} aria-hidden>
                      {counts[t]}
                    </Badge>
                  ) : null
                }
              >
                {TAB_LABELS[t]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {CHARACTER_TABS.map((t) => (
            <Tabs.Panel key={t} value={t}>
              <VisuallyHidden component="h2">{TAB_LABELS[t]}</VisuallyHidden>
              {characters === undefined ? (
                <LoadingCards />
              ) : visible.length === 0 ? (
                <EmptyPanel
                  compact
                  icon={<IconUserSearch size={28} stroke={1.5} />}
                  title="No Characters Found"
                  description={
                    deferredSearch.trim()
                      ? `No ${TAB_LABELS[t].toLowerCase()} match “${deferredSearch.trim()}”.`
                      : all.length === 0
                        ? 'This series has no characters yet. Add the first one.'
                        : `No ${TAB_LABELS[t].toLowerCase()} in this series yet.`
                  }
                  actions={
                    !deferredSearch.trim() && !limitLocked && canEdit ? (
                      <Button variant="light" radius="xl" leftSection={<IconPlus size={16} aria-hidden />} onClick={openCreate}>
                        Add a character
                      </Button>
                    ) : null
                  }
                />
              ) : (
                <Stack gap="md">
                  <SimpleGrid cols={CARD_COLUMNS} spacing="md">
                    {visible.slice(0, shown).map((c) => (
                      <CharacterCard key={c.id} character={c} onView={view} onToggleMain={onToggleMain} onDelete={askDelete} readOnly={!canEdit} />
                    ))}
                  </SimpleGrid>
                  <ShowMore hidden={visible.length - shown} onClick={showMore} radius="xl" />
                </Stack>
              )}
            </Tabs.Panel>
          ))}
        </Tabs>

        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="relationship-map-title">
          <Stack gap={2} mb="md">
            <Title order={2} fz="xl" id="relationship-map-title">
              Character Relationship Map
            </Title>
            <Text size="sm" c="dimmed">
              Select a character to see their details, or a line to edit the relationship.
            </Text>
          </Stack>
          {owned ? <FeatureGate feature="relationshipMapping">{map}</FeatureGate> : map}
        </Paper>
      </Stack>
    );
  }

  const details = dialog.kind === 'details' ? (byId.get(dialog.id) ?? null) : null;

  return (
    <>
      {header}
      <ReadOnlyNotice seriesId={seriesId} />
      {owned ? <CharacterLimitNotice state={limit} /> : null}
      {body}

      <CharacterDialog
        opened={dialog.kind === 'create' || (dialog.kind === 'edit' && editing !== null)}
        character={editing}
        books={books}
        plan={plan}
        seriesId={seriesId}
        picturesGated={owned}
        onClose={close}
        onSubmit={saveCharacter}
        imageOptions={imageOptions}
      />
      <CharacterDetailDialog
        character={details}
        characters={all}
        relationships={relationships ?? []}
        canRelate={canRelate}
        canEdit={canEdit}
        onClose={close}
        onEdit={(c) => setDialog({ kind: 'edit', id: c.id })}
        onAddRelationship={(c) => setDialog({ kind: 'addRelationship', sourceId: c.id })}
      />
      <ConfirmDeleteDialog
        opened={dialog.kind === 'delete'}
        title="Delete character"
        message={MESSAGES.confirm.deleteCharacter}
        radius="lg"
        onCancel={close}
        onConfirm={() => {
          if (dialog.kind === 'delete') void deleteCharacter(dialog.character);
        }}
      />
      <AddRelationshipDialog
        opened={dialog.kind === 'addRelationship'}
        characters={all}
        initialSourceId={dialog.kind === 'addRelationship' ? dialog.sourceId : null}
        onClose={close}
        onSubmit={addRelationship}
      />
      <EditRelationshipDialog
        relationship={dialog.kind === 'editRelationship' ? dialog.relationship : null}
        characters={all}
        onClose={close}
        onSave={saveRelationship}
        onDelete={deleteRelationship}
      />
    </>
  );
}

function LoadingCards() {
  return <LoadingGrid label="Loading characters" height={176} radius="lg" />;
}
