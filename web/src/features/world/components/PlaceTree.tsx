/**
 * The places of a series as a WAI-ARIA tree (https://www.w3.org/WAI/ARIA/apg/patterns/treeview/):
 * one tab stop (the active place), Up/Down to the previous/next shown place, Right to open a place
 * or go to its first place inside, Left to close it or go to the place it is inside, Home/End to the
 * first/last, `*` to open every place beside it, a letter to the next place starting with it, and
 * Enter to open its details. Rows are flat with aria-level/setsize/posinset, so a long list can be
 * shown a page at a time. Selection follows focus: the active place is the one the panel beside
 * the tree shows.
 */
import { memo, useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { Badge, Text } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { Location } from '@chronicler/schema';
import type { TreeRow } from '../model/place-tree';
import { importanceLabel } from '../model/locations';
import { LocationTypeIcon } from './LocationCard';
import classes from '../world.module.css';

interface PlaceTreeProps {
  rows: readonly TreeRow[];
  /** The active (focusable, selected) place; the first row when null or not shown. */
  activeId: string | null;
  onActiveChange: (id: string) => void;
  /** Opens or closes a place with places inside it. */
  onToggle: (id: string, open: boolean) => void;
  /** Opens every place of the list (the siblings of the active one). */
  onExpandAll: (ids: readonly string[]) => void;
  /** Enter or a double click: the place's details. */
  onOpen: (place: Location) => void;
  /** The id of the text that says how to use the tree. */
  describedBy?: string;
}

const INDENT_PX = 22;

export function PlaceTree({ rows, activeId, onActiveChange, onToggle, onExpandAll, onOpen, describedBy }: PlaceTreeProps) {
  const elements = useRef(new Map<string, HTMLDivElement>());
  // Focus follows the active place only when the keyboard (or a click) moved it, never on a re-render.
  const focusWanted = useRef(false);
  const activeIndex = Math.max(0, rows.findIndex((r) => r.place.id === activeId));
  const active = rows[activeIndex];

  useEffect(() => {
    if (!focusWanted.current || !active) return;
    focusWanted.current = false;
    elements.current.get(active.place.id)?.focus();
  }, [active]);

  const moveTo = useCallback(
    (index: number) => {
      const row = rows[Math.min(rows.length - 1, Math.max(0, index))];
      if (!row) return;
      focusWanted.current = true;
      if (row.place.id === active?.place.id) elements.current.get(row.place.id)?.focus();
      else onActiveChange(row.place.id);
    },
    [rows, active, onActiveChange],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!active || event.altKey || event.ctrlKey || event.metaKey) return;
    const { key } = event;
    let handled = true;
    if (key === 'ArrowDown') moveTo(activeIndex + 1);
    else if (key === 'ArrowUp') moveTo(activeIndex - 1);
    else if (key === 'Home') moveTo(0);
    else if (key === 'End') moveTo(rows.length - 1);
    else if (key === 'ArrowRight') {
      if (active.childCount > 0 && !active.expanded) onToggle(active.place.id, true);
      else if (active.expanded) moveTo(activeIndex + 1);
    } else if (key === 'ArrowLeft') {
      if (active.expanded) onToggle(active.place.id, false);
      else if (active.parentId !== null) moveTo(rows.findIndex((r) => r.place.id === active.parentId));
    } else if (key === 'Enter') onOpen(active.place);
    else if (key === '*') onExpandAll(rows.filter((r) => r.parentId === active.parentId && r.childCount > 0).map((r) => r.place.id));
    else if (key.length === 1 && key.trim() !== '') {
      // Type-ahead: the next shown place whose name starts with the letter, wrapping round.
      const letter = key.toLocaleLowerCase();
      const order = [...rows.slice(activeIndex + 1), ...rows.slice(0, activeIndex + 1)];
      const next = order.find((r) => r.place.name.trim().toLocaleLowerCase().startsWith(letter));
      if (next) moveTo(rows.indexOf(next));
      else handled = false;
    } else handled = false;
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const register = useCallback((id: string, element: HTMLDivElement | null) => {
    if (element) elements.current.set(id, element);
    else elements.current.delete(id);
  }, []);

  const select = useCallback(
    (id: string) => {
      focusWanted.current = true;
      onActiveChange(id);
    },
    [onActiveChange],
  );

  return (
    <div role="tree" aria-label="Places" aria-describedby={describedBy} className={classes.tree} onKeyDown={onKeyDown} data-testid="place-tree">
      {rows.map((row) => (
        <PlaceTreeItem
          key={row.place.id}
          row={row}
          active={row === active}
          register={register}
          onSelect={select}
          onToggle={onToggle}
          onOpen={onOpen}
        />
      ))}
    </div>
  );
}

interface PlaceTreeItemProps {
  row: TreeRow;
  active: boolean;
  register: (id: string, element: HTMLDivElement | null) => void;
  onSelect: (id: string) => void;
  onToggle: (id: string, open: boolean) => void;
  onOpen: (place: Location) => void;
}

const PlaceTreeItem = memo(function PlaceTreeItem({ row, active, register, onSelect, onToggle, onOpen }: PlaceTreeItemProps) {
  const { place, level, position, siblings, childCount, expanded, match, looped } = row;
  const id = place.id;
  return (
    <div
      ref={(element) => register(id, element)}
      role="treeitem"
      aria-level={level}
      aria-setsize={siblings}
      aria-posinset={position}
      aria-expanded={childCount > 0 ? expanded : undefined}
      aria-selected={active}
      tabIndex={active ? 0 : -1}
      className={classes.treeItem}
      data-active={active || undefined}
      data-context={match ? undefined : true}
      onClick={() => onSelect(id)}
      onDoubleClick={() => onOpen(place)}
      style={{ paddingInlineStart: 6 + (level - 1) * INDENT_PX }}
    >
      {/* The chevron is for the mouse; the keyboard opens and closes with the arrows. */}
      <span
        className={classes.treeToggle}
        aria-hidden
        data-leaf={childCount === 0 || undefined}
        onClick={(event) => {
          if (childCount === 0) return;
          event.stopPropagation();
          onSelect(id);
          onToggle(id, !expanded);
        }}
      >
        {childCount === 0 ? null : expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
      </span>
      <span className={classes.treeIcon} aria-hidden>
        <LocationTypeIcon type={place.locationType} size={16} />
      </span>
      {/* The item's name: everything else in the row is hidden from assistive technology. */}
      <span className={classes.treeName} data-place-name>
        {place.name}
      </span>
      {looped ? (
        <Badge size="xs" variant="light" color="orange" leftSection={<IconAlertTriangle size={10} aria-hidden />} aria-hidden>
          Inside itself
        </Badge>
      ) : null}
      {childCount > 0 ? (
        <Text span size="xs" c="dimmed" aria-hidden className={classes.treeCount}>
          {childCount}
        </Text>
      ) : null}
      <Text span size="xs" c="dimmed" aria-hidden visibleFrom="sm">
        {importanceLabel(place.importance)}
      </Text>
    </div>
  );
});
