/**
 * Row ↔ wire: a stored row in the shape the API and the changes feed send (packages/schema entity
 * schemas), and wire values back as column values. No SQL: the conversions follow the storage
 * kinds of registry.ts (JSON arrays as text, booleans as 0/1).
 */
import { type EntityKind, type EntityRowByKind, seriesIdOfRow } from '@chronicler/schema';
import type { JsonFieldStorage } from '../db/dialect.ts';
import { ENTITIES } from './registry.ts';

export type WireRow<K extends EntityKind> = EntityRowByKind[K];
/** What a create supplies: everything but the columns the write stamps. */
export type NewRow<K extends EntityKind> = Omit<WireRow<K>, 'rev' | 'createdAt' | 'updatedAt' | 'deletedAt'>;
/** What an update may change: any field but the identity and the stamps. */
export type RowPatch<K extends EntityKind> = Partial<Omit<WireRow<K>, 'id' | 'rev' | 'createdAt' | 'updatedAt'>>;

/**
 * A row in its wire shape: exactly the schema's fields, JSON and booleans decoded. Accepts stored
 * rows and rows already in wire form (the writes build their answer from the values they wrote).
 */
export function toWire<K extends EntityKind>(kind: K, row: Record<string, unknown>): WireRow<K> {
  const d = ENTITIES[kind];
  const out: Record<string, unknown> = {};
  for (const field of d.wireFields) {
    const value = row[field];
    if (d.jsonColumns.includes(field)) out[field] = Array.isArray(value) ? value : typeof value === 'string' ? JSON.parse(value) : [];
    else if (d.booleanColumns.includes(field)) out[field] = Boolean(value);
    else out[field] = value ?? null;
  }
  return out as WireRow<K>;
}

/** Each wire field with how it is stored: what the database needs to build toWire's JSON itself. */
export function wireStorage(kind: EntityKind): ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]> {
  const d = ENTITIES[kind];
  return d.wireFields.map((field) => [field, d.jsonColumns.includes(field) ? 'json' : d.booleanColumns.includes(field) ? 'boolean' : 'value'] as const);
}

/** Wire fields as column values: JSON arrays to text, booleans to 0/1; unknown fields dropped. */
export function toColumns(kind: EntityKind, values: Record<string, unknown>): Record<string, unknown> {
  const d = ENTITIES[kind];
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined || !d.wireFields.includes(field)) continue;
    if (d.jsonColumns.includes(field)) out[field] = JSON.stringify(value);
    else if (d.booleanColumns.includes(field)) out[field] = value ? 1 : 0;
    else out[field] = value;
  }
  return out;
}

/** The series of a series-scoped row (a series is its own). A user-scoped row has none: that is a bug of the caller. */
export function seriesIdOf(kind: EntityKind, row: { id: string; seriesId?: string }): string {
  const seriesId = seriesIdOfRow(kind, row);
  if (seriesId === null) throw new Error(`${kind} rows belong to an author, not to a series`);
  return seriesId;
}
