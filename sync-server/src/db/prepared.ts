/**
 * Query shapes compiled once and run many times with new values. Kysely builds the operation
 * tree, runs it through the plugins (CamelCasePlugin) and compiles it to SQL on every execute —
 * on our hot paths that costs more than SQLite takes to run the query. A prepared query keeps
 * the SQL it compiled the first time and only binds the new values.
 *
 * `build` receives placeholders for the values and must use them only as bound values (where,
 * set, values), never to choose the query's shape: one `key` is one shape. The compiled SQL is
 * the same for every database of this process (one dialect and plugin set, db/database.ts).
 */
import type Database from 'better-sqlite3';
import type { Compilable, Kysely, RootOperationNode } from 'kysely';
import { CamelCasePlugin, createQueryId } from 'kysely';

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
const templates = new Map<string, Template>();

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
): Promise<R[]> {
  let template = templates.get(key);
  if (!template) {
    if (templates.size >= MAX_SHAPES) templates.delete(templates.keys().next().value!);
    templates.set(key, (template = compileTemplate(db, build, Object.keys(values))));
  }
  const parameters = template.parameters.map((p) => {
    if (!('name' in p)) return p.constant;
    const value = values[p.name];
    // Kysely's builders drop undefined values; a prepared shape cannot, so a missing one is a bug.
    if (value === undefined) throw new Error(`Prepared query "${key}" is missing the value "${p.name}"`);
    return value;
  });
  const direct = directReaders.get(db)?.read(template.sql, parameters);
  if (direct) return direct as R[];
  const result = await db.executeQuery<R>({ sql: template.sql, parameters, query: template.query, queryId: createQueryId() });
  return result.rows;
}

// ---------------------------------------------------------------------------------------------
// Direct reads

/** The plugin's own column-name rule, so direct rows have exactly the keys Kysely's would. */
class ColumnNames extends CamelCasePlugin {
  toProperty(column: string): string {
    return this.camelCase(column);
  }
}

interface DirectStatement {
  statement: Database.Statement;
  /** The row property of each result column, in order; null for a statement that writes. */
  properties: string[] | null;
}

/**
 * Reads that skip Kysely's executor. Through the executor a read waits for the connection mutex,
 * passes three promises and the result plugins (~15 µs: more than SQLite takes to run our hot
 * reads, bench/README.md). better-sqlite3 is synchronous, so a SELECT run while the connection
 * has NO open transaction sees exactly the committed database, as the executor's read would, and
 * nothing can interleave with it. While a transaction is open (a group commit between members, a
 * batch request's shared transaction, a write's own reads on its `trx`) the read goes through the
 * executor as before: it then waits for, or joins, that transaction.
 */
class DirectReader {
  private readonly statements = new Map<string, DirectStatement>();
  private readonly names = new ColumnNames();

  constructor(private readonly sqlite: Database.Database) {}

  /** The rows of a SELECT, or undefined when the read must go through the executor. */
  read(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    if (this.sqlite.inTransaction) return undefined;
    const { statement, properties } = this.statement(sql);
    if (!properties) return undefined;
    const rows = statement.all(parameters) as unknown[][];
    const out: Record<string, unknown>[] = new Array(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const values = rows[r]!;
      const row: Record<string, unknown> = {};
      for (let c = 0; c < properties.length; c++) row[properties[c]!] = values[c];
      out[r] = row;
    }
    return out;
  }

  private statement(sql: string): DirectStatement {
    let entry = this.statements.get(sql);
    if (!entry) {
      const statement = this.sqlite.prepare(sql);
      // Raw rows (arrays): the keys are made once here, camelCased, instead of per row twice.
      const properties = statement.reader ? statement.raw(true).columns().map((c) => this.names.toProperty(c.name)) : null;
      if (this.statements.size >= MAX_SHAPES) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, (entry = { statement, properties }));
    }
    return entry;
  }
}

const directReaders = new WeakMap<Kysely<any>, DirectReader>();

/**
 * Lets prepared SELECTs on `db` (the root database, not a transaction of it) run straight on
 * `sqlite`, its one connection, whenever no transaction is open there (db/database.ts).
 */
export function enableDirectReads(db: Kysely<any>, sqlite: Database.Database): void {
  directReaders.set(db, new DirectReader(sqlite));
}

/** Shapes prepared so far (for tests). */
export function preparedShapes(): number {
  return templates.size;
}
