/** The content type of every JSON answer, for routes that send JSON text they already have. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The revision snapshot a remembered JSON text was made from (entities/registry.ts writeSnapshot):
 * the row `entityId` of `entity` as stored at `rev`, whose `snapshot` column holds `snapshot`.
 */
export interface SnapshotSource {
  entity: string;
  entityId: string;
  rev: number;
  snapshot: string;
}

/**
 * JSON text already made for an object (a saved row's revision snapshot is its JSON), so the answer
 * and its idempotency record reuse it instead of serialising ~6 KB of chapter again. Only for
 * objects that are not changed after being remembered.
 */
const knownJson = new WeakMap<object, { json: string; reference: SnapshotReference | undefined }>();

/**
 * How a remembered JSON text is made from a revision snapshot: `source.snapshot` less its closing
 * brace, then `tail` (`}` for the snapshot itself; the appended keys for extendedWithJson). An
 * idempotency record keeps the tail and refers to the snapshot (sync/mutation.ts recordAnswer).
 */
export interface SnapshotReference {
  source: SnapshotSource;
  tail: string;
}

/** Remembers `json` as the JSON of `value`; `source` when that text is the revision snapshot `source.snapshot`. */
export function rememberJson(value: object, json: string, source?: SnapshotSource): void {
  knownJson.set(value, { json, reference: source && json === source.snapshot ? { source, tail: '}' } : undefined });
}

export function jsonOf(value: unknown): string {
  return (typeof value === 'object' && value !== null && knownJson.get(value)?.json) || JSON.stringify(value ?? null);
}

/** How `value`'s remembered JSON is made from a revision snapshot, if it is. */
export function snapshotReferenceOf(value: unknown): SnapshotReference | undefined {
  return typeof value === 'object' && value !== null ? knownJson.get(value)?.reference : undefined;
}

/**
 * `{...base, ...extra}` with its JSON made from base's remembered JSON (when there is one): the
 * extra keys are new, so they come last, as JSON.stringify would put them.
 */
export function extendedWithJson<B extends object, E extends object>(base: B, extra: E): B & E {
  const value = { ...base, ...extra };
  const known = knownJson.get(base);
  // Integer-like keys are ordered first by JS, wherever they were added: those are serialised whole.
  // Own keys only: an inherited name (`toString`) is no key of the JSON, and the merged object gets
  // its own property last, as appended (fast-check found `in` calling `toString` a clash).
  const appendable = Object.keys(extra).every((key) => !Object.hasOwn(base, key) && String(Number(key) >>> 0) !== key);
  if (known !== undefined && known.json.endsWith('}') && appendable) {
    const baseJson = known.json;
    const extraJson = JSON.stringify(extra);
    if (extraJson === '{}') {
      knownJson.set(value, known);
    } else {
      const empty = baseJson === '{}';
      const appended = `${empty ? '' : ','}${extraJson.slice(1)}`;
      const reference = known.reference && { source: known.reference.source, tail: `${known.reference.tail.slice(0, -1)}${appended}` };
      knownJson.set(value, { json: `${empty ? '{' : baseJson.slice(0, -1)}${appended}`, reference });
    }
  }
  return value;
}
