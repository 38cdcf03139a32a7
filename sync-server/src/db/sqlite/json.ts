/**
 * Rows as JSON built by SQLite itself (json_object, json_group_array): lists and the changes feed
 * reach the client without decoding every value into JS and serialising it again
 * (bench/README.md). A PostgreSQL storage builds the same with json_build_object / json_agg.
 */
import { type RawBuilder, sql } from 'kysely';

/** How a field is stored: as its JSON value, as JSON text (arrays), or as 0/1 (booleans). */
export type JsonFieldStorage = 'value' | 'json' | 'boolean';

/** A row as a JSON object built by the database, one key per field in the given order. */
function rowJson(fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>): RawBuilder<unknown> {
  const pairs = fields.map(([field, storage]) => {
    const column = sql.ref(field);
    const value =
      storage === 'json'
        ? sql`json(coalesce(${column}, '[]'))`
        : storage === 'boolean'
          ? sql`json(case when ${column} then 'true' else 'false' end)`
          : column;
    return sql`${sql.lit(field)}, ${value}`;
  });
  return sql`json_object(${sql.join(pairs)})`;
}

/**
 * A row as UTF-8 JSON bytes, built by the database: the changes feed ships megabytes of chapter
 * text without decoding it into JS strings and escaping it again (SQLite json_object cast to a
 * BLOB; on PostgreSQL: convert_to(json_build_object(...)::text, 'UTF8')).
 */
export function rowJsonBytes(fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>): RawBuilder<Uint8Array> {
  return sql<Uint8Array>`cast(${rowJson(fields)} as blob)`;
}

/**
 * The selected rows as ONE JSON array text, in `orderBy` order, built by the database (an
 * aggregate: `[]` when no row matches). Handing a list to the client this way costs a fraction of
 * decoding every value into JS and serialising it again (bench/README.md; on PostgreSQL:
 * coalesce(json_agg(json_build_object(...) order by ...), '[]')).
 */
export function rowsJsonArray(
  fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>,
  orderBy: readonly string[],
): RawBuilder<string> {
  const order = sql.join(orderBy.map((column) => sql`${sql.ref(column)} asc`));
  return sql<string>`json_group_array(${rowJson(fields)} order by ${order})`;
}
