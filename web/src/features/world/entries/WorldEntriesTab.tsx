/**
 * One World tab of entries (Cultures, Magic Systems, Flora & Fauna, Technology, Politics;
 * docs/decisions/0020-world-entries.md): search, sort and filters, the list drawn by window (10,000
 * entries stay quick), and the create, edit and delete dialogs. Reads come live from the local
 * database and writes go through the mutators, so the tab works offline.
 *
 * Advanced world building gates every write (the server refuses them, 403): on an author's own
 * series without it, an empty tab is shown under the spec's Feature Locked overlay with its Upgrade
 * button, and entries made before a downgrade stay readable under an upgrade notice. A shared
 * series follows its owner's plan, which this device does not know: not gated here.
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Group, Select, Skeleton, Stack, Text } from '@mantine/core';
import { IconLock, IconPlus, IconWorldSearch } from '@tabler/icons-react';
import { WORLD_CATEGORY_NAMES, WORLD_MESSAGES, type WorldCategory, type WorldEntry, gateState } from '@chronicler/schema';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { FeatureGate } from '@/components/FeatureGate';
import { EmptyPanel, SearchField } from '@/components/SeriesListScreen';
import { useSession } from '@/lib/session';
import { useSync } from '@/lib/sync';
import { saveChanges, toastOutcome } from '@/lib/toast';
import type { ToastContent } from '@/lib/copy/toasts';
import { CATEGORY_TABS, type EntryFilters, type EntrySort, NO_FILTERS, SORT_OPTIONS, countOf, tagsInUse, visibleEntries } from '../model/entries';
import { type EntryFormValues, createBodyFromForm, updateBodyFromForm } from '../model/entry-form';
import { ENTRY_ROW_HEIGHT, EntryRow } from './EntryRow';
import { WorldEntryDialog } from './WorldEntryDialog';
import { useWindowedRows } from './useWindowedRows';
import { useWorldEntriesData } from './useWorldEntriesData';
import classes from './entries.module.css';

export interface WorldEntriesTabProps {
  category: WorldCategory;
  seriesId: string;
  seriesTitle?: string | undefined;
  /** The author owns the series: its plan is theirs. */
  owned: boolean;
  /** The author's role lets them write (not a viewer). */
  canEdit: boolean;
}

type Dialog = { kind: 'none' } | { kind: 'create' } | { kind: 'edit'; id: string } | { kind: 'delete'; entry: WorldEntry };

function toastsOf(category: WorldCategory) {
  const one = WORLD_CATEGORY_NAMES[category].one;
  const lower = one.toLowerCase();
  const ok = (title: string): ToastContent => ({ title, variant: 'default' });
  const fail = (title: string): ToastContent => ({ title, message: 'An unexpected error occurred', variant: 'destructive' });
  return {
    added: ok(`${one} added`),
    updated: ok(`${one} updated`),
    deleted: ok(`${one} deleted`),
    addFailed: fail(`Error adding ${lower}`),
    updateFailed: fail(`Error updating ${lower}`),
    deleteFailed: fail(`Error deleting ${lower}`),
  };
}

export default function WorldEntriesTab({ category, seriesId, seriesTitle, owned, canEdit }: WorldEntriesTabProps) {
  const { db, mutators } = useSync();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const data = useWorldEntriesData(db, seriesId);
  const names = WORLD_CATEGORY_NAMES[category];
  const toasts = useMemo(() => toastsOf(category), [category]);

  const locked = owned && gateState({ plan, feature: 'advancedWorldBuilding' }).locked;
  const writable = canEdit && !locked;

  const [filters, setFilters] = useState<EntryFilters>(NO_FILTERS);
  const deferred = useDeferredValue(filters);
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  // A link from a character's or a place's page, or from an entry of another tab, opens the entry
  // (`?tab=…&entry=<id>`); closing it takes the id out of the address.
  const wanted = params.get('entry');
  useEffect(() => {
    if (wanted) setDialog({ kind: 'edit', id: wanted });
  }, [wanted]);
  const close = useCallback(() => {
    setDialog({ kind: 'none' });
    setParams(
      (p) => {
        p.delete('entry');
        return p;
      },
      { replace: true },
    );
  }, [setParams]);

  const all = useMemo(() => (data?.entries ?? []).filter((e) => e.category === category), [data, category]);
  const visible = useMemo(() => visibleEntries(all, deferred), [all, deferred]);
  const tags = useMemo(() => tagsInUse(all), [all]);
  const byId = useMemo(() => new Map((data?.entries ?? []).map((e) => [e.id, e])), [data]);
  // How many links each entry has, counting the entries that link to it (the other side).
  const linkCounts = useMemo(() => {
    const counts = new Map<string, number>();
    const add = (id: string, n = 1) => counts.set(id, (counts.get(id) ?? 0) + n);
    for (const e of data?.entries ?? []) {
      add(e.id, e.characterIds.length + e.locationIds.length + e.entryIds.length + e.allyIds.length + e.enemyIds.length + (e.leaderId ? 1 : 0));
      for (const id of [...e.entryIds, ...e.allyIds, ...e.enemyIds]) add(id);
    }
    return counts;
  }, [data]);
  const editing = dialog.kind === 'edit' ? (byId.get(dialog.id) ?? null) : null;
  const rows = useWindowedRows(visible.length, ENTRY_ROW_HEIGHT);

  const setFilter = <K extends keyof EntryFilters>(key: K, value: EntryFilters[K]) => setFilters((f) => ({ ...f, [key]: value }));
  const openCreate = () => setDialog({ kind: 'create' });
  const openEntry = useCallback(
    (e: WorldEntry) => (e.category === category ? setDialog({ kind: 'edit', id: e.id }) : setParams({ tab: CATEGORY_TABS[e.category], entry: e.id })),
    [category, setParams],
  );
  const askDelete = useCallback((e: WorldEntry) => setDialog({ kind: 'delete', entry: e }), []);

  const save = async (values: EntryFormValues): Promise<boolean> => {
    if (dialog.kind === 'edit') {
      if (!editing) return true;
      return saveChanges(updateBodyFromForm(editing, values), (body) => mutators.worldEntries.update(editing.id, body), toasts.updated, toasts.updateFailed);
    }
    return toastOutcome(() => mutators.worldEntries.create(createBodyFromForm(seriesId, category, values)), toasts.added, toasts.addFailed);
  };
  const remove = async (entry: WorldEntry) => {
    await toastOutcome(() => mutators.worldEntries.delete(entry.id), toasts.deleted, toasts.deleteFailed);
    close();
  };

  const newButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={openCreate} disabled={!writable}>
      New {names.one}
    </Button>
  );
  const filtered = deferred.query.trim() !== '' || deferred.tag !== null || deferred.book !== null;

  let body;
  if (data === undefined) {
    body = (
      <Stack gap={6} aria-busy="true" aria-label={`Loading ${names.many}`}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={ENTRY_ROW_HEIGHT - 8} radius="md" />
        ))}
      </Stack>
    );
  } else if (all.length === 0) {
    const empty = (
      <EmptyPanel
        compact
        icon={<IconWorldSearch size={30} stroke={1.5} />}
        title={`No ${names.tab} Yet`}
        description={`${seriesTitle ?? 'This series'} has no ${names.many} yet. ${INVITATIONS[category]}`}
        actions={canEdit ? newButton : null}
        data-testid="world-entries-empty"
      />
    );
    body = locked ? <FeatureGate feature="advancedWorldBuilding">{empty}</FeatureGate> : empty;
  } else if (visible.length === 0) {
    body = (
      <EmptyPanel
        compact
        icon={<IconWorldSearch size={30} stroke={1.5} />}
        title={`No ${names.tab} Found`}
        description={`No ${names.one.toLowerCase()} matches these filters.`}
        actions={
          <Button variant="default" onClick={() => setFilters((f) => ({ ...NO_FILTERS, sort: f.sort }))}>
            Show all {names.many}
          </Button>
        }
      />
    );
  } else {
    body = (
      <div ref={rows.ref} className={classes.list} style={{ height: rows.height }} role="list" aria-label={names.tab}>
        {visible.slice(rows.start, rows.end).map((entry, i) => (
          <EntryRow
            key={entry.id}
            entry={entry}
            top={(rows.start + i) * ENTRY_ROW_HEIGHT}
            links={linkCounts.get(entry.id) ?? 0}
            onOpen={openEntry}
            onDelete={askDelete}
            readOnly={!writable}
          />
        ))}
      </div>
    );
  }

  return (
    <Stack gap="md">
      {locked && all.length > 0 ? (
        <Alert color="yellow" icon={<IconLock size={18} aria-hidden />} title="Feature Locked" data-testid="world-upgrade">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{gateState({ plan, feature: 'advancedWorldBuilding' }).message} Your {names.many} stay here to read and export.</Text>
            <Button component={Link} to="/subscription" size="xs" radius="xl">
              Upgrade
            </Button>
          </Group>
        </Alert>
      ) : null}
      {all.length > 0 ? (
        <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <SearchField label={`Search ${names.many}`} placeholder={`Search ${names.many}...`} value={filters.query} onChange={(v) => setFilter('query', v)} w={{ base: '100%', sm: 260 }} />
            <Select label="Sort" data={SORT_OPTIONS} value={filters.sort} onChange={(v) => setFilter('sort', (v ?? 'name') as EntrySort)} allowDeselect={false} w={170} comboboxProps={{ withinPortal: true }} />
            {tags.length > 0 ? (
              <Select label="Tag" placeholder="Any tag" data={tags} value={filters.tag} onChange={(v) => setFilter('tag', v)} clearable searchable w={150} comboboxProps={{ withinPortal: true }} />
            ) : null}
            {(data?.books.length ?? 0) > 0 ? (
              <Select
                label="Book"
                placeholder="Any book"
                data={data!.books.map((b) => ({ value: String(b.position), label: `Book ${b.position}: ${b.title}` }))}
                value={filters.book === null ? null : String(filters.book)}
                onChange={(v) => setFilter('book', v === null ? null : Number(v))}
                clearable
                w={190}
                comboboxProps={{ withinPortal: true }}
              />
            ) : null}
          </Group>
          {canEdit && !locked ? newButton : null}
        </Group>
      ) : null}
      {all.length > 0 ? (
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="world-entries-count">
          {filtered ? `${visible.length.toLocaleString('en-US')} of ${countOf(category, all.length)}` : countOf(category, all.length)}
        </Text>
      ) : null}
      {body}

      {data ? (
        <WorldEntryDialog
          opened={dialog.kind === 'create' || (dialog.kind === 'edit' && editing !== null && editing.category === category)}
          category={category}
          entry={editing}
          books={data.books}
          targets={data}
          seriesTitle={seriesTitle}
          onClose={close}
          onSubmit={save}
          onOpenEntry={openEntry}
          readOnly={!writable && dialog.kind === 'edit'}
        />
      ) : null}
      <ConfirmDeleteDialog
        opened={dialog.kind === 'delete'}
        title={`Delete ${names.one.toLowerCase()}`}
        message={WORLD_MESSAGES.confirmDelete(category)}
        onCancel={close}
        onConfirm={() => (dialog.kind === 'delete' ? remove(dialog.entry) : undefined)}
      />
    </Stack>
  );
}

/** What the empty tab invites the author to add. */
const INVITATIONS: Readonly<Record<WorldCategory, string>> = {
  culture: 'Add the peoples of your world: their languages, beliefs and customs.',
  magicSystem: 'Define how magic works: its sources, its costs and its limits.',
  floraFauna: 'Catalogue the plants, beasts and creatures that live in your world.',
  technology: 'Track the tools, machines and inventions that shape your world.',
  politics: 'Map the realms and factions: their leaders, goals, allies and enemies.',
};
