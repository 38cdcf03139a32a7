/**
 * Generators of malformed requests for the fuzz tests (fast-check), and the invariants every
 * answer must keep: no 5xx, 4xx bodies shaped `{message, code}`, no SQL/stack/path text.
 */
import fc from 'fast-check';
import { ERROR_CODES } from '@chronicler/schema';

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Strings that have broken servers before: traversal, injection, encodings, sizes, lookalikes. */
export const NASTY_STRINGS = [
  '', ' ', '\t\n', '../', '../../../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f', '%00', '\u0000', '%', '%zz', '%E0%A4%A',
  "' OR '1'='1", "'; DROP TABLE users; --", '" UNION SELECT password_hash FROM users --', '1; UPDATE users SET plan=legendary',
  '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString',
  'x'.repeat(5_000), 'é'.repeat(600), '🦄'.repeat(300), '\uD800', '\uDFFF\uD800', '\u202E', '\uFEFF', 'ǅ', 'İ',
  'NaN', 'Infinity', '-Infinity', '-1', '0', '-0', '1e309', '9007199254740993', '0x10', '1_000', 'null', 'undefined', 'true',
  '[]', '{}', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'DELETE', '*', '?', '#',
] as const;

export const stringArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 3 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.integer({ min: 201, max: 25_000 }).map((n) => 'a'.repeat(n)), weight: 1 },
);

/** Raw JSON number tokens, including ones JSON.parse turns into Infinity, -0 or a lossy value. */
const NUMBER_TOKENS = ['1e400', '-1e400', '1e-400', '-0', '123456789012345678901234567890', '0.1e1', '1E2', '2.5', '-2147483649', '9007199254740993'];

/** A JSON value as raw text: any JSON, hostile numbers, deep or wide structures. */
export const jsonTokenArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 4 },
  { arbitrary: stringArb.map((s) => JSON.stringify(s)), weight: 4 },
  { arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53, 2 ** 63, -(2 ** 53), 1e308, -1e308, 1.5)).map((n) => JSON.stringify(n)), weight: 3 },
  { arbitrary: fc.constantFrom(...NUMBER_TOKENS), weight: 2 },
  { arbitrary: fc.constantFrom('null', 'true', 'false', '[]', '{}', '[null]', '[[[]]]', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}'), weight: 2 },
  { arbitrary: fc.integer({ min: 50, max: 5_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)), weight: 1 },
  { arbitrary: fc.integer({ min: 100, max: 3_000 }).map((n) => JSON.stringify(Array.from({ length: n }, (_, i) => i))), weight: 1 },
);

/** Keys that probe prototype pollution and strictness. */
export const keyArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'seriesId', 'ownerId', 'userId', 'rev', 'deletedAt', 'plan', 'isAdmin', ''),
  fc.string({ maxLength: 20 }),
);

// ---------------------------------------------------------------------------------------------
// Near-valid bodies: a valid body with exactly one thing wrong

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i], ...pathsOf(item, [...prefix, i]));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) out.push([...prefix, key], ...pathsOf(item, [...prefix, key]));
  }
  return out;
}

function objectPathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...objectPathsOf(item, [...prefix, i])));
  else if (value !== null && typeof value === 'object') {
    out.push(prefix);
    for (const [key, item] of Object.entries(value)) out.push(...objectPathsOf(item, [...prefix, key]));
  }
  return out;
}

const samePath = (a: Path, b: Path) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * JSON text of `value` with an edit at `path`: the value there replaced by a raw token, removed,
 * or (for `add`) a new key with a raw token added to the object there. Keys go out verbatim, so
 * `__proto__` really is sent as a key.
 */
export function stringifyEdited(value: unknown, edit: { path: Path; kind: 'replace' | 'remove' | 'add'; key?: string; token?: string }, at: Path = []): string {
  if (edit.kind !== 'add' && samePath(at, edit.path)) return edit.token ?? 'null';
  if (Array.isArray(value)) {
    const items: string[] = [];
    value.forEach((item, i) => {
      if (edit.kind === 'remove' && samePath([...at, i], edit.path)) return;
      items.push(stringifyEdited(item, edit, [...at, i]));
    });
    return `[${items.join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (edit.kind === 'remove' && samePath([...at, key], edit.path)) continue;
      entries.push(`${JSON.stringify(key)}:${stringifyEdited(item, edit, [...at, key])}`);
    }
    if (edit.kind === 'add' && samePath(at, edit.path)) entries.push(`${JSON.stringify(edit.key ?? 'extra')}:${edit.token ?? 'null'}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Near-valid JSON texts derived from one valid body. */
export function nearValidBodyArb(valid: unknown): fc.Arbitrary<string> {
  const paths = pathsOf(valid);
  const objects = objectPathsOf(valid);
  const options: fc.Arbitrary<string>[] = [];
  if (paths.length > 0) {
    const pathArb = fc.constantFrom(...paths);
    options.push(fc.tuple(pathArb, jsonTokenArb).map(([path, token]) => stringifyEdited(valid, { path, kind: 'replace', token })));
    options.push(pathArb.map((path) => stringifyEdited(valid, { path, kind: 'remove' })));
  }
  if (objects.length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...objects), keyArb, jsonTokenArb).map(([path, key, token]) => stringifyEdited(valid, { path, kind: 'add', key, token })),
    );
  }
  // The same key twice: JSON.parse keeps the last, a naive hash or proxy might keep the first.
  if (valid && typeof valid === 'object' && !Array.isArray(valid) && Object.keys(valid).length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...Object.keys(valid)), jsonTokenArb).map(([key, token]) => `${JSON.stringify(valid).slice(0, -1)},${JSON.stringify(key)}:${token}}`),
    );
  }
  if (options.length === 0) options.push(fc.constant(JSON.stringify(valid)));
  return fc.oneof(...options);
}

/** Text that is not JSON at all, or JSON cut short. */
export function invalidJsonArb(valid: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(valid ?? { a: 1 });
  return fc.oneof(
    fc.constantFrom('{', '}', '{"a":}', "{'a':1}", '{"a":1,}', '[1,2', 'NaN', '{"a":NaN}', '{"a":undefined}', '\u0000', '\uFEFF{}', 'nul', '"unterminated', '{"a":1}{"b":2}', '// comment\n{}'),
    fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((n) => text.slice(0, n)),
    fc.string({ maxLength: 60 }),
    fc.integer({ min: 10_000, max: 100_000 }).map((n) => '['.repeat(n)),
    fc.integer({ min: 2_000, max: 20_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  );
}

export const contentTypeArb = fc.constantFrom(
  'application/json', 'application/json; charset=utf-8', 'application/JSON', 'application/vnd.api+json', 'text/plain',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml', 'application/json; charset=utf-16',
  'application/json; charset=latin1', '*/*', 'application/json, text/plain', 'application/octet-stream', '',
);

// ---------------------------------------------------------------------------------------------
// Query strings and path params

/** Percent-encodes any string; a lone surrogate (which has no UTF-8 form) becomes U+FFFD. */
export const enc = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
/** Query strings: random pairs (encoded), repeated and bracketed keys, broken escapes. */
export function queryArb(validQuery: string | undefined): fc.Arbitrary<string> {
  const knownKeys = ['since', 'limit', 'before', 'seriesId', 'bookId', 'period', '__proto__', 'constructor', 'constructor[prototype][x]', '__proto__[x]'];
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...knownKeys), keyArb), stringArb).map(([k, v]) => `${enc(k)}=${enc(v)}`);
  const validPairs = (validQuery ?? '').split('&').filter(Boolean);
  return fc.oneof(
    fc.array(pair, { maxLength: 4 }).map((pairs) => pairs.join('&')),
    fc.constantFrom('since=1&since=2', 'since[]=1', 'since[a]=1', 'limit=0', 'limit=-1', 'limit=1e9', 'since=%zz', '&&&=', '=', 'since', 'limit=10001', 'since=9007199254740993', 'before=-1', 'limit=1.5', 'limit= 5 '),
    fc.tuple(fc.constantFrom(...(validPairs.length > 0 ? validPairs : ['since=0'])), stringArb).map(([p, v]) => `${p.split('=')[0]}=${enc(v)}`),
  );
}

/** Path parameter values; `real` are ids that exist (own and foreign), to reach deeper code too. */
export function pathParamArb(real: string[]): fc.Arbitrary<{ value: string; raw: boolean }> {
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...real), weight: 3 },
    { arbitrary: stringArb, weight: 4 },
    { arbitrary: fc.integer({ min: -5, max: 1_000_000 }).map(String), weight: 1 },
    { arbitrary: fc.uuid().map((s) => s), weight: 1 },
    { arbitrary: fc.constantFrom(...real).map((id) => id.toUpperCase()), weight: 1 },
    { arbitrary: fc.constantFrom(...real).map((id) => `${id} `), weight: 1 },
  );
  // Raw values go into the URL as they are (when the URL can carry them): `../` really traverses.
  return fc.tuple(value, fc.boolean()).map(([v, raw]) => ({ value: v, raw: raw && /^[\x21-\x7e]*$/.test(v) && !/[?#]/.test(v) }));
}

const headerSafe = (s: string) => /^[\x20-\x7e]*$/.test(s);
export const syncHeadersArb: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'x-base-rev': fc.oneof(fc.constantFrom('', '-1', 'abc', '1e999', '0', '1.5', '99999999999999999999', '9007199254740993'), fc.nat().map(String)),
    'idempotency-key': fc.oneof(fc.uuid(), fc.string({ maxLength: 250 }).filter(headerSafe), fc.constant('k'.repeat(201))),
    'x-client-id': fc.string({ maxLength: 80 }).filter(headerSafe),
    'x-mutation-id': fc.oneof(fc.nat().map(String), fc.string({ maxLength: 20 }).filter(headerSafe)),
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------------------------------------
// Invariants

/** Internals that must never reach a client: SQL, driver errors, stack frames, file paths. */
const SQL_TEXT = [
  // `select "id", … from`, `select * from`, `select count(*) … from`: SQL-shaped, not "Please select a series first".
  /\bselect\s+(\*|count\(|"|`|\w+\.\w+|\w+\s*,)[^\n]{0,300}?\bfrom\b/i,
  /\binsert\s+into\b/i, /\bupdate\s+["`]?\w+["`]?\s+set\b/i, /\bdelete\s+from\b/i, /\bcreate\s+table\b/i];
const STACK_TEXT = [
  /SQLITE_[A-Z_]+/, /SqliteError/, /no such (table|column)/i, /constraint failed/i,
  /\bat\s+[^\n]*\.(ts|js|mjs|cjs):\d+/, /node_modules/, /\/work\//, /\bError:[^\n]*\n\s+at\s/, /ZodError/,
  /"stack"\s*:/,
];

/** The internal-looking fragments of `body` that the request itself did not carry. */
export function internalsIn(body: string, status: number, requestText: string): string[] {
  const patterns = status >= 200 && status < 300 ? STACK_TEXT : [...SQL_TEXT, ...STACK_TEXT];
  const echoed = (text: string) => requestText.includes(text) || JSON.stringify(requestText).includes(text);
  const found: string[] = [];
  for (const pattern of patterns) {
    const match = pattern.exec(body);
    if (match && !echoed(match[0])) found.push(match[0].slice(0, 120));
  }
  return found;
}

const KNOWN_CODES = new Set<string>(Object.values(ERROR_CODES));

/** Problems with an answer, as text (empty when it keeps every invariant). */
export function answerProblems(answer: { status: number; body: string; streamed: boolean }, requestText: string): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (answer.status >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      problems.push('error body is not JSON');
    }
    const body = parsed as { message?: unknown; code?: unknown } | undefined;
    if (parsed !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) problems.push('error body is not an object');
    else if (body && (typeof body.message !== 'string' || body.message === '' || typeof body.code !== 'string')) {
      problems.push('error body lacks {message, code} strings');
    } else if (body && !KNOWN_CODES.has(body.code as string)) {
      problems.push(`error code ${String(body.code)} is not one of ours (packages/schema errors.ts)`);
    }
  }
  for (const fragment of internalsIn(answer.body, answer.status, requestText)) problems.push(`internal text: ${fragment}`);
  return problems;
}
