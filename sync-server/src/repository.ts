/**
 * The server's repository code for tools that write rows straight, without HTTP (the sync
 * benches' seeding and outbox-flush baseline): `@chronicler/sync-server/repository`. Every write
 * is what a route handler does — a fresh global seq (`nextSeq`), then `insertRow` / `updateRow`.
 */
// Type-only: brings the server's `declare module 'fastify'` (app.deps) into the importing program.
import type {} from './app.ts';

export { type OpenedDatabase, openDatabase } from './db/database.ts';
export { runInSharedTransaction } from './db/shared-transaction.ts';
export { ENTITIES } from './entities/registry.ts';
export { type NewRow, type RowPatch, seriesIdOf, toColumns, toWire } from './entities/wire.ts';
export { insertRow, updateRow } from './entities/writes.ts';
export { markUserChanged } from './entities/user-rows.ts';
export { type MutationContext, type WriteContext, nextSeq, runServerWrite } from './sync/mutation.ts';
export { type StoredRecord, recordedAnswer } from './sync/mutation.ts';
