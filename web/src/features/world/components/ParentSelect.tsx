import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { type LocationTree, parentChoices } from '../model/place-tree';

/** The choice "not inside another place" (a Select's value cannot be null; no id looks like it). */
const TOP_LEVEL = 'top-level';

interface ParentSelectProps {
  tree: LocationTree;
  /** The place being moved (it and the places inside it are not offered); null for a new place. */
  movingId: string | null;
  value: string | null;
  onChange: (parentId: string | null) => void;
  error?: string | undefined;
  description?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

/**
 * "Inside": the place a place is inside, or the top level (docs/decisions/0021-places-inside-places.md).
 * A place is never offered itself or a place within it, so a cycle cannot be chosen; each choice
 * reads as its path ("Earthsea › Archipelago"), and typing filters them.
 */
export function ParentSelect({ tree, movingId, value, onChange, error, description, disabled, autoFocus }: ParentSelectProps) {
  const data = useMemo(
    () => [{ value: TOP_LEVEL, label: 'None (top level)' }, ...parentChoices(tree, movingId).map(({ value: id, label }) => ({ value: id, label }))],
    [tree, movingId],
  );
  // A parent no longer offered (deleted here, or a stale choice): shown as the top level, saved as chosen.
  const selected = value !== null && data.some((d) => d.value === value) ? value : TOP_LEVEL;
  return (
    <Select
      label="Inside"
      description={description}
      data={data}
      value={selected}
      onChange={(v) => onChange(v === null || v === TOP_LEVEL ? null : v)}
      allowDeselect={false}
      searchable
      nothingFoundMessage="No place matches"
      checkIconPosition="right"
      comboboxProps={{ withinPortal: true }}
      error={error}
      disabled={disabled}
      data-autofocus={autoFocus || undefined}
      limit={200}
    />
  );
}
