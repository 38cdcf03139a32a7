/**
 * Query shapes compiled once and run many times with new values. Kysely builds the operation
 * tree, runs it through the plugins (CamelCasePlugin) and compiles it to SQL on every execute —
 * on our hot paths that costs more than SQLite takes to run the query. A prepared query keeps
 * the SQL it compiled the first time and only binds the new values.
 *
 * `build` receives placeholders for the values and must use them only as bound values (where,
 * set, values), never to choose the query's shape: one `key` is one shape. The compiled SQL is
 * the same for every database of one dialect in this process (one plugin set, db/database.ts), so
 * shapes are kept per dialect (a process may open SQLite and PostgreSQL: the operator command's
 * tests, the benches).
 *
 * Portable: the template is run through Kysely's executor, unless the storage runs it straight on
 * its connection (the SQLite storage's exclusive-process capability, db/sqlite/direct-statements.ts).
 */
import type { Compilable, Kysely, RootOperationNode } from 'kysely';
import { createQueryId } from 'kysely';
import { setBounded } from './bounded-map.ts';
import { runDirect } from './sqlite/direct-statements.ts';

/** Stand-ins for the values while the shape is compiled (typed as the values, for the builders). */
type Placeholders<V extends Record<string, unknown>> = { readonly [K in keyof V]: V[K] };

interface Template {
  sql: string;
  query: RootOperationNode;
  /** Per parameter: the name of the value to bind, or the constant the build put there. */
  parameters: ReadonlyArray<{ name: string } | { constant: unknown }>;
}

const PLACEHOLDER = '\u0000prepared-value:';
/**
 * Shapes kept at most. Ours are a few dozen; inserts keyed by the columns a body sets could make
 * more, so the oldest go first (compiling again is only slower).
 */
const MAX_SHAPES = 1000;
/** Per dialect (its adapter's class: $1 or ? placeholders, quoting), the shapes compiled. */
const templatesByDialect = new Map<unknown, Map<string, Template>>();

function templatesOf(db: Kysely<any>): Map<string, Template> {
  const dialect = db.getExecutor().adapter.constructor;
  let templates = templatesByDialect.get(dialect);
  if (!templates) templatesByDialect.set(dialect, (templates = new Map()));
  return templates;
}

function compileTemplate(db: Kysely<any>, build: (db: Kysely<any>, values: any) => Compilable<unknown>, names: string[]): Template {
  const placeholders = Object.fromEntries(names.map((name) => [name, `${PLACEHOLDER}${name}`]));
  const compiled = build(db, placeholders).compile();
  if (compiled.sql.includes(PLACEHOLDER)) throw new Error('A prepared query used a value in its SQL text instead of binding it');
  const parameters = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER) ? { name: value.slice(PLACEHOLDER.length) } : { constant: value },
  );
  return { sql: compiled.sql, query: compiled.query, parameters };
}

/**
 * Runs the query shape `key` (built by `build` on first use) with `values` on `db` (a database
 * or a transaction), through Kysely's executor: plugins still transform the result rows.
 */
export async function runPrepared<R, V extends Record<string, unknown>>(
  db: Kysely<any>,
  key: string,
  build: (db: Kysely<any>, values: Placeholders<V>) => Compilable<R>,
  values: V,
  options: { cached?: boolean } = {},
): Promise<R[]> {
  const templates = templatesOf(db);
  let template = templates.get(key);
  if (!template) setBounded(templates, key, (template = compileTemplate(db, build, Object.keys(values))), MAX_SHAPES);
  const parameters = template.parameters.map((p) => {
    if (!('name' in p)) return p.constant;
    const value = values[p.name];
    // Kysely's builders drop undefined values; a prepared shape cannot, so a missing one is a bug.
    if (value === undefined) throw new Error(`Prepared query "${key}" is missing the value "${p.name}"`);
    return value;
  });
  // `cached`: the result may be answered from the storage's read cache while nothing was written.
  const direct = runDirect(db, template.sql, parameters, options.cached === true);
  if (direct) return direct as R[];
  const result = await db.executeQuery<R>({ sql: template.sql, parameters, query: template.query, queryId: createQueryId() });
  return result.rows;
}

/** Shapes prepared so far (for tests). */
export function preparedShapes(): number {
  let shapes = 0;
  for (const templates of templatesByDialect.values()) shapes += templates.size;
  return shapes;
}
