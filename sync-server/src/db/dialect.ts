/**
 * The storage dialect's named pieces, for code outside db/: everything that is written for SQLite
 * (or for better-sqlite3's connection) lives under db/sqlite/ and is reached through here, so a
 * second storage (PostgreSQL) replaces this list and nothing above it (db/README.md).
 */
export { type JsonFieldStorage, rowJsonBytes, rowsJsonArray } from './sqlite/json.ts';
export { addToWritingDay, countThrottleHit, dataVersion, incrementSeq, insertIdempotencyRecordIfAbsent, upsertRevision } from './sqlite/statements.ts';
export { cachedResults, execStatement } from './sqlite/direct-statements.ts';
export { abandonedTransactions } from './sqlite/write-transactions.ts';
