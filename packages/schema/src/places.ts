/**
 * Places inside places (docs/decisions/0021-places-inside-places.md): a location's `parentId` names
 * the place it is inside. The rules both sides apply, written once: a move that would put a place
 * inside itself or inside one of its own descendants is refused (the server at write time, the
 * device before it writes), and the tree a device draws from its rows never loops — rows merged
 * from two devices' concurrent moves may hold a cycle for a moment (until the server refuses the
 * second move), and the places on it are drawn at the top level, marked.
 *
 * Pure and linear in the number of places; every walk up an ancestry is bounded by a visited set.
 */

/** What the tree reads of a place. */
export interface PlaceLink {
  readonly id: string;
  readonly parentId: string | null;
}

export const PLACE_MESSAGES = {
  /** A move into itself or into a place inside it. */
  cycle: 'A place cannot be inside itself or inside one of the places within it',
  /** A parent of another series (or one the caller cannot see). */
  otherSeries: 'A place can only be inside another place of the same series',
  /** The chosen parent is not on this device any more (deleted elsewhere). */
  parentMissing: 'The place you chose to put it in is no longer available',
  /** Drawn beside a place whose ancestry loops after two devices' moves met. */
  loops: 'Moves made on two devices put this place inside itself; it is shown at the top level until you move it',
} as const;

/**
 * Why `id` may not move inside `parentId`, or null when it may (null parent: the top level).
 * `byId` holds the places of its series as this side knows them.
 */
export function placeMoveProblem(byId: ReadonlyMap<string, PlaceLink>, id: string, parentId: string | null): string | null {
  if (parentId === null) return null;
  if (parentId === id) return PLACE_MESSAGES.cycle;
  const seen = new Set<string>();
  for (let at: string | null = parentId; at !== null; at = byId.get(at)?.parentId ?? null) {
    // The new parent is inside `id` — or its own ancestry already loops, which `id` would join.
    if (at === id || seen.has(at)) return PLACE_MESSAGES.cycle;
    seen.add(at);
  }
  return null;
}

/** A place's tree, as drawn: every place exactly once, under its parent or at the top level. */
export interface PlaceTree<T extends PlaceLink> {
  /** Top-level places, in the caller's order. */
  readonly roots: readonly T[];
  /** Each place's children, in the caller's order (absent: none). */
  readonly children: ReadonlyMap<string, readonly T[]>;
  /** Each place's parent as drawn: null at the top level. */
  readonly parentOf: ReadonlyMap<string, string | null>;
  /** Places on a cycle of `parentId`s (a merge of concurrent moves): drawn at the top level. */
  readonly looped: ReadonlySet<string>;
  /** Places whose parent is not among the rows (deleted, or not on this device yet): drawn at the top level. */
  readonly orphaned: ReadonlySet<string>;
}

/**
 * The tree of `places` (live rows of one series). A place goes under its parent when the parent is
 * among `places` and the place is not on a cycle; otherwise at the top level. A place whose
 * ancestry merely leads into a cycle stays under its parent (the cycle's places are the roots).
 */
export function buildPlaceTree<T extends PlaceLink>(places: readonly T[], compare: (a: T, b: T) => number): PlaceTree<T> {
  const byId = new Map(places.map((p) => [p.id, p]));
  const looped = new Set<string>();
  // 0: not visited, 1: on the walk being made, 2: settled.
  const state = new Map<string, 1 | 2>();
  for (const start of places) {
    const path: string[] = [];
    let at: T | undefined = start;
    while (at !== undefined && state.get(at.id) === undefined) {
      state.set(at.id, 1);
      path.push(at.id);
      at = at.parentId == null ? undefined : byId.get(at.parentId);
    }
    // Stopped on a place of this walk: from there to the walk's end is a cycle.
    if (at !== undefined && state.get(at.id) === 1) {
      for (let i = path.indexOf(at.id); i < path.length; i += 1) looped.add(path[i]!);
    }
    for (const id of path) state.set(id, 2);
  }

  const parentOf = new Map<string, string | null>();
  const orphaned = new Set<string>();
  const roots: T[] = [];
  const children = new Map<string, T[]>();
  for (const place of places) {
    // `?? null`: a row a device kept from before the field has none.
    const named = place.parentId ?? null;
    const parent = named !== null && !looped.has(place.id) && byId.has(named) ? named : null;
    if (named !== null && !looped.has(place.id) && parent === null) orphaned.add(place.id);
    parentOf.set(place.id, parent);
    if (parent === null) roots.push(place);
    else {
      const siblings = children.get(parent);
      if (siblings) siblings.push(place);
      else children.set(parent, [place]);
    }
  }
  roots.sort(compare);
  for (const list of children.values()) list.sort(compare);
  return { roots, children, parentOf, looped, orphaned };
}

/** The places `id` is inside, as drawn, from the top level down (its breadcrumbs, itself left out). */
export function placeAncestors<T extends PlaceLink>(tree: PlaceTree<T>, byId: ReadonlyMap<string, T>, id: string): T[] {
  const out: T[] = [];
  // The drawn tree has no cycle; the bound is for a tree and rows that disagree.
  for (let at = tree.parentOf.get(id) ?? null; at !== null && out.length <= tree.parentOf.size; at = tree.parentOf.get(at) ?? null) {
    const place = byId.get(at);
    if (!place) break;
    out.unshift(place);
  }
  return out;
}

/** The ids of every place inside `id`, at any depth, as drawn (itself left out). */
export function placeDescendants<T extends PlaceLink>(tree: PlaceTree<T>, id: string): Set<string> {
  const out = new Set<string>();
  const stack = [...(tree.children.get(id) ?? [])];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (out.has(next.id)) continue;
    out.add(next.id);
    stack.push(...(tree.children.get(next.id) ?? []));
  }
  return out;
}

/** The places in the order a reader meets them: each followed by the places inside it, with its depth (0 at the top). */
export function placesInTreeOrder<T extends PlaceLink>(tree: PlaceTree<T>): Array<{ place: T; depth: number }> {
  const out: Array<{ place: T; depth: number }> = [];
  const stack: Array<{ place: T; depth: number }> = [...tree.roots].reverse().map((place) => ({ place, depth: 0 }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    out.push(next);
    const inside = tree.children.get(next.place.id) ?? [];
    for (let i = inside.length - 1; i >= 0; i -= 1) stack.push({ place: inside[i]!, depth: next.depth + 1 });
  }
  return out;
}

/**
 * Where a place goes whose parent `parentId` is deleted: up to the deleted place's own parent, and
 * on up past deleted ones, to the nearest live place (null: the top level). `load` answers a stored
 * place, deleted or not (undefined when unknown). Bounded: a chain of tombstones never loops, but a
 * damaged store must not hang a write.
 */
export async function nearestLivePlace(
  load: (id: string) => Promise<(PlaceLink & { readonly deletedAt: string | null }) | undefined>,
  parentId: string | null,
  limit = 10_000,
): Promise<string | null> {
  const seen = new Set<string>();
  for (let at = parentId; at !== null && !seen.has(at) && seen.size < limit; ) {
    seen.add(at);
    const place = await load(at);
    if (place === undefined) return null;
    if (place.deletedAt === null) return place.id;
    at = place.parentId;
  }
  return null;
}
