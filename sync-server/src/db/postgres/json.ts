/**
 * Rows as JSON built by PostgreSQL (to_json, string_agg), in exactly the shape the SQLite
 * storage builds with json_object / json_group_array (db/sqlite/json.ts; bench/README.md for why
 * the database builds it).
 */
import { type RawBuilder, sql } from 'kysely';
import type { JsonFieldStorage } from '../sqlite/json.ts';

/**
 * A row as a json value: to_json of a one-row subselect whose columns are the wire fields, which
 * PostgreSQL prints compactly (`{"id":"…","rev":3}`) as SQLite's json_object does; json_build_object
 * would print `"id" : "…"`.
 */
function rowJson(fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>): RawBuilder<unknown> {
  const columns = fields.map(([field, storage]) => {
    const column = sql.ref(field);
    const value =
      storage === 'json'
        ? sql`coalesce(${column}, '[]')::json`
        : storage === 'boolean'
          ? sql`(${column} <> 0)`
          : column;
    // A raw quoted name: sql.id would be renamed to snake_case by the camel-case plugin. Field names come from the registry.
    return sql`${value} as ${sql.raw(`"${field.replace(/"/g, '""')}"`)}`;
  });
  return sql`(select to_json(wire) from (select ${sql.join(columns)}) as wire)`;
}

/** A row as UTF-8 JSON bytes (bytea: a Buffer in node-postgres). */
export function rowJsonBytesPg(fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>): RawBuilder<Uint8Array> {
  return sql<Uint8Array>`convert_to(${rowJson(fields)}::text, 'UTF8')`;
}

/** The selected rows as ONE JSON array text, in `orderBy` order; `[]` when no row matches. */
export function rowsJsonArrayPg(fields: ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]>, orderBy: readonly string[]): RawBuilder<string> {
  const order = sql.join(orderBy.map((column) => sql`${sql.ref(column)} asc`));
  // string_agg, not json_agg: json_agg separates elements with ", " and line breaks.
  return sql<string>`'[' || coalesce(string_agg(${rowJson(fields)}::text, ',' order by ${order}), '') || ']'`;
}
