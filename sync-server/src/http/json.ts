/** The content type of every JSON answer, for routes that send JSON text they already have. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * JSON text already made for an object (a saved row's revision snapshot is its JSON), so the answer
 * and its idempotency record reuse it instead of serialising ~6 KB of chapter again. Only for
 * objects that are not changed after being remembered.
 */
const knownJson = new WeakMap<object, string>();

export function rememberJson(value: object, json: string): void {
  knownJson.set(value, json);
}

export function jsonOf(value: unknown): string {
  return (typeof value === 'object' && value !== null && knownJson.get(value)) || JSON.stringify(value ?? null);
}

/**
 * `{...base, ...extra}` with its JSON made from base's remembered JSON (when there is one): the
 * extra keys are new, so they come last, as JSON.stringify would put them.
 */
export function extendedWithJson<B extends object, E extends object>(base: B, extra: E): B & E {
  const value = { ...base, ...extra };
  const baseJson = knownJson.get(base);
  // Integer-like keys are ordered first by JS, wherever they were added: those are serialised whole.
  const appendable = Object.keys(extra).every((key) => !(key in base) && String(Number(key) >>> 0) !== key);
  if (baseJson !== undefined && baseJson.endsWith('}') && appendable) {
    const extraJson = JSON.stringify(extra);
    rememberJson(value, extraJson === '{}' ? baseJson : `${baseJson === '{}' ? '{' : `${baseJson.slice(0, -1)},`}${extraJson.slice(1)}`);
  }
  return value;
}
