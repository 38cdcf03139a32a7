/**
 * The Locations tab's tree (docs/decisions/0021-places-inside-places.md), as pure rules: the rows a
 * tree shows for what is expanded and what is searched, breadcrumbs, the places a place may move
 * into, and what a delete does to the places inside. The tree itself comes from the shared rules
 * (@chronicler/schema places.ts), so rows that loop after two devices' moves never hang the page.
 */
import {
  type Location,
  type PlaceTree,
  buildPlaceTree,
  placeAncestors,
  placeDescendants,
  placesInTreeOrder,
} from '@chronicler/schema';
import { compareLocations, matchesSearch } from './locations';

export interface LocationTree {
  tree: PlaceTree<Location>;
  byId: ReadonlyMap<string, Location>;
}

export function locationTree(locations: readonly Location[]): LocationTree {
  return { tree: buildPlaceTree(locations, compareLocations), byId: new Map(locations.map((l) => [l.id, l])) };
}

/** One row of the drawn tree (a WAI-ARIA treeitem: level, position among its siblings). */
export interface TreeRow {
  place: Location;
  /** 1 at the top level (aria-level). */
  level: number;
  /** 1-based position among the siblings shown, and how many are shown (aria-posinset, aria-setsize). */
  position: number;
  siblings: number;
  /** The row's parent as drawn; null at the top level. */
  parentId: string | null;
  /** How many places are shown inside it when expanded (0: a leaf, no aria-expanded). */
  childCount: number;
  expanded: boolean;
  /** Searching: false for a place shown only because a match is inside it. */
  match: boolean;
  /** Drawn at the top level because moves made on two devices put it inside itself. */
  looped: boolean;
}

/**
 * The rows to show, in order. Without a search: the top level, and inside each expanded place its
 * places. With one: the matches and every place they are inside, all open, nothing else.
 */
export function visibleTreeRows({ tree }: LocationTree, expanded: ReadonlySet<string>, query: string): TreeRow[] {
  const searching = query.trim() !== '';
  let shown: Set<string> | null = null;
  const matched = new Set<string>();
  if (searching) {
    shown = new Set();
    for (const { place } of placesInTreeOrder(tree)) {
      if (!matchesSearch(place, query)) continue;
      matched.add(place.id);
      for (let at: string | null = place.id; at !== null && !shown.has(at); at = tree.parentOf.get(at) ?? null) shown.add(at);
    }
  }
  const inside = (id: string | null): readonly Location[] => {
    const all = id === null ? tree.roots : (tree.children.get(id) ?? []);
    return shown === null ? all : all.filter((p) => shown.has(p.id));
  };
  const rows: TreeRow[] = [];
  const walk = (parentId: string | null, level: number) => {
    const list = inside(parentId);
    list.forEach((place, i) => {
      const childCount = inside(place.id).length;
      const open = childCount > 0 && (searching || expanded.has(place.id));
      rows.push({
        place,
        level,
        position: i + 1,
        siblings: list.length,
        parentId,
        childCount,
        expanded: open,
        match: !searching || matched.has(place.id),
        looped: tree.looped.has(place.id),
      });
      if (open) walk(place.id, level + 1);
    });
  };
  walk(null, 1);
  return rows;
}

/** The places `id` is inside, from the top level down: its breadcrumbs. */
export function breadcrumbsOf({ tree, byId }: LocationTree, id: string): Location[] {
  return placeAncestors(tree, byId, id);
}

/** "Earthsea › Archipelago › Roke": a place with the places it is inside. */
export function placePath(lt: LocationTree, place: Location): string {
  return [...breadcrumbsOf(lt, place.id), place].map((p) => p.name).join(' › ');
}

/** The places a place may be inside (for a new place: every one), in tree order with their paths. */
export function parentChoices(lt: LocationTree, movingId: string | null): Array<{ value: string; label: string; depth: number }> {
  const excluded = movingId === null ? new Set<string>() : new Set([movingId, ...placeDescendants(lt.tree, movingId)]);
  return placesInTreeOrder(lt.tree)
    .filter(({ place }) => !excluded.has(place.id))
    .map(({ place, depth }) => ({ value: place.id, label: placePath(lt, place), depth }));
}

/** How many places are inside `id` at any depth. */
export function descendantCount({ tree }: LocationTree, id: string): number {
  return placeDescendants(tree, id).size;
}

/**
 * What deleting `place` does to the places inside it, in words for the confirmation (the delete
 * cascade moves them up to its parent: docs/decisions/0021-places-inside-places.md); '' for none.
 */
export function deleteConsequence(lt: LocationTree, place: Location): string {
  const children = lt.tree.children.get(place.id)?.length ?? 0;
  if (children === 0) return '';
  const parentId = lt.tree.parentOf.get(place.id) ?? null;
  const parent = parentId === null ? null : lt.byId.get(parentId);
  const which = children === 1 ? `The place inside ${place.name} is not deleted: it moves` : `The ${children} places inside ${place.name} are not deleted: they move`;
  return parent ? `${which} up into ${parent.name}.` : `${which} up to the top level.`;
}

/** Every place with places inside it (to expand all). */
export function placesWithChildren({ tree }: LocationTree): string[] {
  return [...tree.children.keys()];
}
