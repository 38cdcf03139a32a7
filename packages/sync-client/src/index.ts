/**
 * @chronicler/sync-client — the browser side of the data loop (docs/architecture.md#the-data-loop,
 * docs/sync-protocol.md), without React: the user's Dexie database, the mutators that write a row
 * and its outbox entry in one transaction, the queries the screens read, and the sync engine that
 * pushes the outbox, applies the server's answers and pulls the changes feed. See README.md for the
 * modules.
 */
export * from './db.ts';
export * from './mutators.ts';
export * from './queries.ts';
export * from './rebase.ts';
export * from './acks.ts';
export * from './problems.ts';
export * from './status.ts';
export * from './storage.ts';
export * from './engine.ts';
export * from './writing.ts';
export * from './activity.ts';
export * from './companion.ts';
export * from './entitlements.ts';
export * from './roles.ts';
export * from './restructure.ts';
export * from './word-rule.ts';
export * from './media/picture-format.ts';
export * from './media/store.ts';
export * from './media/fetch.ts';
export { refusalMessage } from './engine/pictures.ts';
