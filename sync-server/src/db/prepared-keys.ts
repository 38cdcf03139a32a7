/**
 * Every key of a prepared query shape (`runPrepared`, prepared.ts). One key is one shape: the
 * first query run under a key fixes its SQL, so two different queries must never share a key.
 *
 * - PREPARED_KEYS: the fixed keys, one per query. A key names one query, so the same key is used
 *   at two call sites only when both build that very query.
 * - PREPARED_FAMILIES: the keys of the shapes built from a table, columns, kinds or a count. Each
 *   family's keys are its `prefix` followed by those parts, and no prefix starts another family's
 *   prefix or a fixed key, so a family's keys never meet another's or a fixed one
 *   (test/db/prepared-keys.test.ts). Within a family the parts must name the shape: table,
 *   column and kind names hold no space or comma.
 *
 * Portable: only strings (the storage's seam, db/README.md).
 */

export const PREPARED_KEYS = Object.freeze({
  // db/sqlite/statements.ts
  nextSeq: 'nextSeq',
  writeSnapshot: 'writeSnapshot',
  addToWritingDay: 'addToWritingDay',
  // entities/queries.ts
  seriesMember: 'seriesMember',
  ownerPlan: 'ownerPlan',
  userPlan: 'userPlan',
  // sync/mutation.ts: the idempotency records
  idempotencyKey: 'idempotencyKey',
  recordIdempotencyReference: 'recordIdempotencyReference',
  recordIdempotencyKey: 'recordIdempotencyKey',
  // sync/changes.ts: the feed
  feedSeq: 'feed seq',
  feedOwnedSeries: 'feed owned series',
  feedMemberships: 'feed memberships',
  feedUserKindsWithNews: 'feed user kinds with news',
  // progress/
  progressTimeZone: 'progress timeZone',
  progressSettings: 'progress settings',
  progressWritingRules: 'progress writingRules',
  progressLogEdit: 'progress logEdit',
  progressDailyWords: 'progress dailyWords',
  progressStatsTop: 'progress statsTop',
  progressEarnedIds: 'progress earnedIds',
  progressEarn: 'progress earn',
  progressLifetimeWords: 'progress lifetimeWords',
  // ai/: the writing companion
  companionAllowanceHolder: 'companion allowance holder',
  companionUsage: 'companion usage',
  companionSpendUnlimited: 'companion spend (unlimited)',
  companionSpendLimited: 'companion spend (limited)',
  companionSeriesStamps: 'companion series stamps',
  companionPreviousSuggestions: 'companion previous suggestions',
  // media/: a series' picture, served
  mediaSeriesPicture: 'media series picture',
});

/** A family of keys: `prefix` then the parts that choose the shape. */
function family<A extends unknown[]>(prefix: string, parts: (...args: A) => string): ((...args: A) => string) & { readonly prefix: string } {
  return Object.freeze(Object.assign((...args: A) => prefix + parts(...args), { prefix }));
}

type Names = readonly string[];

export const PREPARED_FAMILIES = Object.freeze({
  // entities/
  findRow: family('findRow:', (table: string) => table),
  findRowWithSeries: family('findRowWithSeries:', (table: string) => table),
  standing: family('standing:', (table: string) => table),
  idTaken: family('idTaken:', (table: string) => table),
  countLive: family('countLive:', (table: string, column: string) => `${table} ${column}`),
  listLive: family('listLive:', (table: string, column: string, orderBy: Names) => `${table} ${column} ${orderBy.join(',')}`),
  listLiveJson: family('listLiveJson:', (table: string, column: string, orderBy: Names) => `${table} ${column} ${orderBy.join(',')}`),
  insertRow: family('insertRow:', (table: string, columns: Names) => `${table} ${columns.join(',')}`),
  updateRow: family('updateRow:', (table: string, columns: Names) => `${table} ${columns.join(',')}`),
  // sync/: the feed (a scope shape: sync/changes.ts shapeKey), the hub and the live channel, by the number of series bound
  feedCount: family('feed count:', (shape: string) => shape),
  feedRead: family('feed read:', (shape: string) => shape),
  feedLump: family('feed lump:', (kind: string) => kind),
  feedCountUserKinds: family('feed user kinds count:', (kinds: Names) => kinds.join(',')),
  hubAudience: family('hub audience series=', (seriesCount: number) => String(seriesCount)),
  liveRows: family('live rows series=', (seriesCount: number) => String(seriesCount)),
  // progress/
  progressOwnedCount: family('progress ownedCount:', (table: string, completedOnly: boolean) => `${table} ${completedOnly}`),
});
