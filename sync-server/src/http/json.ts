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
const knownJson = new WeakMap<object, { json: string; source: SnapshotSource | undefined }>();

/** Remembers `json` as the JSON of `value`; `source` when that text is (or begins as) a revision snapshot. */
export function rememberJson(value: object, json: string, source?: SnapshotSource): void {
  knownJson.set(value, { json, source });
}

export function jsonOf(value: unknown): string {
  return (typeof value === 'object' && value !== null && knownJson.get(value)?.json) || JSON.stringify(value ?? null);
}

/**
 * The revision snapshot `value`'s remembered JSON was made from: that JSON is the snapshot's text,
 * or the snapshot's text with keys appended before its closing brace (extendedWithJson).
 */
export function snapshotSourceOf(value: unknown): SnapshotSource | undefined {
  return typeof value === 'object' && value !== null ? knownJson.get(value)?.source : undefined;
}

/**
 * `{...base, ...extra}` with its JSON made from base's remembered JSON (when there is one): the
 * extra keys are new, so they come last, as JSON.stringify would put them.
 */
export function extendedWithJson<B extends object, E extends object>(base: B, extra: E): B & E {
  const value = { ...base, ...extra };
  const known = knownJson.get(base);
  // Integer-like keys are ordered first by JS, wherever they were added: those are serialised whole.
  const appendable = Object.keys(extra).every((key) => !(key in base) && String(Number(key) >>> 0) !== key);
  if (known !== undefined && known.json.endsWith('}') && appendable) {
    const baseJson = known.json;
    const extraJson = JSON.stringify(extra);
    rememberJson(value, extraJson === '{}' ? baseJson : `${baseJson === '{}' ? '{' : `${baseJson.slice(0, -1)},`}${extraJson.slice(1)}`, known.source);
  }
  return value;
}
